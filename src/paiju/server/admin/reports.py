"""The console's reports, from what the database already holds: the days' figures, the
pairs who may play together (串通), and the players whose decisions follow the 困难 bot's
(外挂). No report acts on its own: staff read it, look at the hands it names, and decide.

**Collusion** (:func:`collusion`). For every pair of players who shared at least
``min_hands`` finished hands of three or more seats, the test asks whether the pair's
joint result at those tables is better than their skills explain. Each player's skill
``s`` is fitted over every hand by the additive model ``delta = s - mean of the table's
s`` (bots 0). In each shared hand the pair's *gain* is its two deltas less the table's
mean delta twice, less what the model expects of the two at that table. Under the null
hypothesis (the pair plays like any two seats of the table) a gain has mean 0; its
variance is that of the sum of two seats drawn without replacement from the table's
``k`` deltas, ``2 σ² (k-2)/(k-1)``, or the gains' sample variance if larger. The sum over
the shared hands divided by its standard deviation is about normal: the one-sided
p-value is ``P(Z ≥ z)``. Ranked by p-value, with the Bonferroni bound for the number of
pairs tested and the hands where the pair gained most.

**Bot assistance** (:func:`assistance`). Each human decision of a finished hand is
replayed; the 困难 bot (:class:`paiju.search.SearchBot`, on the seat's own view, a
bounded budget) is asked what it would have done; a player's match rate is compared to
the pooled rate of the other players **of their level** (forced moves, with one legal
action, left out) with a one-sided binomial test (normal approximation with continuity
correction): a strong player follows a strong bot more often than a beginner, so the
level's own rate is the fair baseline. A level is a band of the player's rating ``mu``
(:func:`level_bands`: :data:`BANDS`, cut at the bots' anchor ratings); a band whose
other players made fewer than ``min_decisions`` decisions falls back to everyone else
(``baseline`` ``all``). Each row gives the ``threshold``: the match rate above which the
test says "beyond chance" at :data:`ALPHA` over the player's number of decisions. At most
``per_player`` decisions of a player and ``total`` in all are replayed (the newest hands
first), so that the report stays bounded; the median seconds a player took for a
decision come with it, and the player's 复盘 summary (``review``: the share of reviewed
decisions that matched the bot, the points lost per hand to marked mistakes) over the
same number of their last hands (:meth:`paiju.server.reviews.service.Reviews.summary`).
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import combinations
from typing import Any

from sqlalchemy import select

from paiju.engine import Action, Game, State
from paiju.server import tables as t
from paiju.server.clubs import tables as c
from paiju.server.reviews.service import Reviews
from paiju.server.store import Store

__all__ = [
    "ALPHA",
    "BANDS",
    "Decision",
    "assistance",
    "assistance_of",
    "collusion",
    "collusion_of",
    "csv_text",
    "daily",
    "hard_chooser",
    "level_bands",
    "threshold",
    "upper_p",
]

DAY = 86_400.0


def upper_p(z: float) -> float:
    """P(Z ≥ z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def _day(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


# -- the days ----------------------------------------------------------------------------


def daily(store: Store, days: int = 7) -> list[dict[str, Any]]:
    """One entry per UTC day, the oldest first, today included: players active (who
    played a hand), new players, hands and rooms per game, the bots' share of seats, and
    the retention of the day's new players after 1, 7 and 30 days."""
    if not 1 <= days <= 366:
        raise ValueError("a report covers 1 to 366 days")
    today = datetime.fromtimestamp(store.clock(), UTC).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    first = today - timedelta(days=days - 1)
    since = first.timestamp()
    out: dict[str, dict[str, Any]] = {}
    for i in range(days):
        key = (first + timedelta(days=i)).strftime("%Y-%m-%d")
        out[key] = {
            "day": key,
            "active": 0,
            "new_players": 0,
            "hands": {},
            "rooms": {},
            "seats": 0,
            "bot_seats": 0,
            "bot_share": None,
            "clubs": {"active": 0, "rooms": 0, "hands": 0},
        }
    active: dict[str, set[int]] = defaultdict(set)
    with store.engine.connect() as conn:
        for code, at, players in conn.execute(
            select(t.hands.c.code, t.hands.c.started_at, t.hands.c.players).where(
                t.hands.c.started_at >= since
            )
        ):
            entry = out.get(_day(at))
            if entry is None:
                continue
            entry["hands"][code] = entry["hands"].get(code, 0) + 1
            entry["seats"] += len(players)
            entry["bot_seats"] += sum(1 for p in players if p is None)
            active[entry["day"]].update(p for p in players if p is not None)
        for code, at in conn.execute(
            select(t.rooms.c.code, t.rooms.c.created_at).where(t.rooms.c.created_at >= since)
        ):
            entry = out.get(_day(at))
            if entry is not None:
                entry["rooms"][code] = entry["rooms"].get(code, 0) + 1
        _club_days(conn, since, out)
        cohorts: dict[str, set[int]] = defaultdict(set)
        for pid, at in conn.execute(
            select(t.players.c.id, t.players.c.created_at).where(t.players.c.created_at >= since)
        ):
            entry = out.get(_day(at))
            if entry is not None:
                entry["new_players"] += 1
                cohorts[entry["day"]].add(int(pid))
    for key, entry in out.items():
        entry["active"] = len(active[key])
        if entry["seats"]:
            entry["bot_share"] = round(entry["bot_seats"] / entry["seats"], 4)
        entry["retention"] = _retention(key, cohorts[key], active, today)
    return list(out.values())


def _club_days(conn: Any, since: float, out: dict[str, dict[str, Any]]) -> None:
    """Each day's 亲友圈 figures: clubs whose tables dealt a hand (active), club tables
    opened (rooms), and the hands dealt at club tables."""
    ct = c.club_tables
    for (at,) in conn.execute(select(ct.c.at).where(ct.c.at >= since)):
        entry = out.get(_day(at))
        if entry is not None:
            entry["clubs"]["rooms"] += 1
    active: dict[str, set[int]] = defaultdict(set)
    for club, at in conn.execute(
        select(ct.c.club_id, t.hands.c.started_at)
        .join(t.hands, t.hands.c.room_id == ct.c.room_id)
        .where(t.hands.c.started_at >= since)
    ):
        entry = out.get(_day(at))
        if entry is not None:
            entry["clubs"]["hands"] += 1
            active[entry["day"]].add(int(club))
    for day, clubs in active.items():
        out[day]["clubs"]["active"] = len(clubs)


def _retention(
    day: str, cohort: set[int], active: dict[str, set[int]], today: datetime
) -> dict[str, float | None]:
    """Of the players new on ``day``, the share who played a hand 1, 7 and 30 days later
    (None: that day has not come yet, or nobody was new)."""
    start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
    shares: dict[str, float | None] = {}
    for after in (1, 7, 30):
        later = start + timedelta(days=after)
        if not cohort or later > today:
            shares[f"d{after}"] = None
            continue
        back = active.get(later.strftime("%Y-%m-%d"), set())
        shares[f"d{after}"] = round(len(cohort & back) / len(cohort), 4)
    return shares


# -- collusion ---------------------------------------------------------------------------


def _hands_of(store: Store, since: float | None) -> list[tuple[int, list[tuple[int | None, int]]]]:
    """Finished hands: (hand id, [(player or None for a bot, delta) per seat])."""
    by_hand: dict[int, list[tuple[int | None, int]]] = defaultdict(list)
    q = (
        select(t.ledger.c.hand_id, t.ledger.c.seat, t.ledger.c.player_id, t.ledger.c.delta)
        .join(t.hands, t.hands.c.id == t.ledger.c.hand_id)
        .where(t.hands.c.status == "over")
        .order_by(t.ledger.c.hand_id, t.ledger.c.seat)
    )
    if since is not None:
        q = q.where(t.hands.c.started_at >= since)
    with store.engine.connect() as conn:
        for hand, _seat, player, delta in conn.execute(q):
            by_hand[int(hand)].append((None if player is None else int(player), int(delta)))
    return sorted(by_hand.items())


def _skills(
    tables: list[tuple[int, list[tuple[int | None, int]]]],
    excess: dict[int, dict[int, float]],
    rounds: int = 30,
) -> dict[int, float]:
    """Each player's skill ``s`` in the additive model ``delta = s - mean of the table's
    s`` (a bot's s is 0), fitted by fixed-point rounds over every hand."""
    skill = dict.fromkeys(excess, 0.0)
    for _ in range(rounds):
        sums: dict[int, float] = defaultdict(float)
        for _hand, seats in tables:
            k = len(seats)
            total = sum(skill[p] for p, _ in seats if p is not None)
            for p, d in seats:
                if p is not None:
                    sums[p] += (d - sum(x for _, x in seats) / k + (total - skill[p]) / k) * (
                        k / (k - 1)
                    )
        skill = {p: sums[p] / len(excess[p]) for p in excess}
    return skill


def collusion_of(
    hands: Iterable[tuple[int, list[tuple[int | None, int]]]],
    min_hands: int = 20,
    top: int = 50,
) -> list[dict[str, Any]]:
    """The collusion test (see the module) over hands given as (id, [(player, delta)])."""
    tables = [(h, seats) for h, seats in hands if len(seats) >= 3]
    seat_skills: dict[int, list[float]] = {}
    # each player's excess over a random seat of the table, per hand
    excess: dict[int, dict[int, float]] = defaultdict(dict)
    shared: dict[tuple[int, int], list[int]] = defaultdict(list)
    spread: dict[int, float] = {}
    for hand, seats in tables:
        k = len(seats)
        deltas = [d for _, d in seats]
        mean = sum(deltas) / k
        sigma2 = sum((d - mean) ** 2 for d in deltas) / k
        spread[hand] = 2 * sigma2 * (k - 2) / (k - 1)
        people = sorted({p for p, _ in seats if p is not None})
        for p, d in seats:
            if p is not None:
                excess[p][hand] = excess[p].get(hand, 0.0) + d - mean
        for pair in combinations(people, 2):
            shared[pair].append(hand)
    skill = _skills(tables, excess)
    for hand, seats in tables:
        seat_skills[hand] = [0.0 if p is None else skill[p] for p, _ in seats]
    found: list[dict[str, Any]] = []
    for (a, b), together in shared.items():
        n = len(together)
        if n < min_hands:
            continue
        gains = {}
        for h in together:
            table = seat_skills[h]
            usual = skill[a] + skill[b] - 2 * sum(table) / len(table)
            gains[h] = excess[a][h] + excess[b][h] - usual
        # the variance of the sum: the null's (a random pair of each table) or the
        # sample's, whichever is larger
        null = sum(spread[h] for h in together)
        seen = n * statistics.variance(gains.values()) if n >= 2 else 0.0
        variance = max(null, seen)
        if variance <= 0:
            continue
        z = sum(gains.values()) / math.sqrt(variance)
        found.append(
            {
                "players": [a, b],
                "shared_hands": n,
                "hands_each": [len(excess[a]), len(excess[b])],
                "together_share": round(n / min(len(excess[a]), len(excess[b])), 4),
                "joint_excess": round(sum(excess[a][h] + excess[b][h] for h in together), 2),
                "skills": [round(skill[a], 3), round(skill[b], 3)],
                "z": round(z, 3),
                "p_value": upper_p(z),
                "hands": sorted(together, key=lambda h: -gains[h])[:10],
            }
        )
    found.sort(key=lambda f: (f["p_value"], -f["shared_hands"]))
    tested = len(found)
    for f in found:
        f["tested_pairs"] = tested
        f["p_bonferroni"] = min(1.0, f["p_value"] * tested)
    return found[:top]


def collusion(
    store: Store, days: int | None = None, min_hands: int = 20, top: int = 50
) -> list[dict[str, Any]]:
    """:func:`collusion_of` over the finished hands of the last ``days`` (None: all)."""
    since = None if days is None else store.clock() - days * DAY
    return collusion_of(_hands_of(store, since), min_hands, top)


# -- bot assistance ----------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """A human decision to check: the player, the hand, the state before it (the true
    one: the chooser hands the bot only the seat's view), the seat, what was played and
    the seconds it took."""

    player: int
    hand: int
    state: State
    seat: int
    action: Action
    seconds: float | None


Chooser = Callable[[State, int], Action]


def hard_chooser(game: Game, seed: int = 0, samples: int = 8) -> Chooser:
    """The 困难 bot's choice on the seat's own view (a state resampled for the seat),
    with at most ``samples`` worlds per decision."""
    from paiju.bots import SeatOnly
    from paiju.games import FAMILIES, resolve, rule_bot
    from paiju.search import Budget, SearchBot

    family = FAMILIES[game.variant.family]
    if family.search:
        policy = rule_bot if family.search_policy is None else resolve(family.search_policy)
        bot: Any = SearchBot(game, seed, policy, Budget(samples=samples, min_samples=2))
    else:
        bot = rule_bot(game, seed)
    seat_only = SeatOnly(bot, seed)
    return seat_only.act


def _same(x: Action, y: Action) -> bool:
    return x.to_json() == y.to_json()


BANDS: tuple[tuple[float, str], ...] = (
    (18.0, "beginner"),
    (25.0, "casual"),
    (30.0, "strong"),
    (math.inf, "expert"),
)
"""The levels of the assistance report, by a player's rating ``mu``, cut at the bots'
anchors (:data:`paiju.server.ratings.service.BOT_RATINGS`): 新手 below the 简单 bot, 普通
up to the 普通 bot, 高手 up to the 困难 bot, 顶尖 above it; ``unrated`` without a rating."""
BAND_ZH = {
    "beginner": "新手",
    "casual": "普通",
    "strong": "高手",
    "expert": "顶尖",
    "unrated": "未定级",
    "all": "全体",
}
ALPHA = 0.01
"""The one-sided level of the assistance report's threshold."""
Z_ALPHA = 2.3263478740408408
"""The standard normal's quantile at 1 - :data:`ALPHA`."""


def band_of_mu(mu: float) -> str:
    return next(name for upper, name in BANDS if mu < upper)


def level_bands(store: Store) -> dict[int, str]:
    """Each rated player's band: the mean ``mu`` of their ratings, weighted by the rooms
    behind each (a player who plays several games is one level)."""
    from paiju.server.ratings import tables as r

    sums: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    with store.engine.connect() as conn:
        for player, mu, rooms in conn.execute(
            select(r.ratings.c.player_id, r.ratings.c.mu, r.ratings.c.rooms)
        ):
            weight = max(1, int(rooms))
            sums[int(player)][0] += float(mu) * weight
            sums[int(player)][1] += weight
    return {p: band_of_mu(total / weight) for p, (total, weight) in sums.items()}


def threshold(p0: float, n: int) -> float:
    """The match rate over ``n`` decisions above which the one-sided test of
    :func:`assistance_of` says "beyond chance" at :data:`ALPHA`, against a rate ``p0``."""
    return min(1.0, p0 + Z_ALPHA * math.sqrt(p0 * (1 - p0) / n) + 0.5 / n)


def assistance_of(
    decisions: Iterable[Decision],
    chooser: Callable[[Game], Chooser],
    min_decisions: int = 30,
    bands: dict[int, str] | None = None,
) -> list[dict[str, Any]]:
    """The assistance test (see the module) over ``decisions``; ``chooser(game)`` makes
    the reference bot of a game. With ``bands`` (player -> level) a player is compared
    with the others of their band, where those made ``min_decisions`` decisions; with
    everyone else otherwise (``baseline`` says which)."""
    bots: dict[int, Chooser] = {}
    matched: dict[int, list[bool]] = defaultdict(list)
    times: dict[int, list[float]] = defaultdict(list)
    hands: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for d in decisions:
        legal = d.state.legal_actions(d.seat)
        if legal is not None and len(legal) < 2:
            continue  # a forced move tells nothing
        game = d.state.game
        choose = bots.get(id(game))
        if choose is None:
            choose = bots[id(game)] = chooser(game)
        same = _same(choose(d.state, d.seat), d.action)
        matched[d.player].append(same)
        if same:
            hands[d.player][d.hand] += 1
        if d.seconds is not None:
            times[d.player].append(d.seconds)
    total_n = sum(len(v) for v in matched.values())
    total_k = sum(sum(v) for v in matched.values())

    def band(player: int) -> str:
        return "all" if bands is None else bands.get(player, "unrated")

    band_n: dict[str, int] = defaultdict(int)
    band_k: dict[str, int] = defaultdict(int)
    for player, marks in matched.items():
        band_n[band(player)] += len(marks)
        band_k[band(player)] += sum(marks)
    found: list[dict[str, Any]] = []
    for player, marks in matched.items():
        n, k = len(marks), sum(marks)
        level = band(player)
        rest_n, rest_k = band_n[level] - n, band_k[level] - k
        baseline = level
        if bands is None or rest_n < min_decisions:
            rest_n, rest_k, baseline = total_n - n, total_k - k, "all"
        p0 = (rest_k / rest_n) if rest_n else 0.5
        p0 = min(max(p0, 1e-6), 1 - 1e-6)
        z = (k - 0.5 - n * p0) / math.sqrt(n * p0 * (1 - p0))
        found.append(
            {
                "player": player,
                "band": level,
                "baseline": baseline,
                "decisions": n,
                "matches": k,
                "match_rate": round(k / n, 4),
                "others_rate": round(p0, 4),
                "threshold": round(threshold(p0, n), 4),
                "z": round(z, 3),
                "p_value": upper_p(z) if n >= min_decisions else None,
                "enough": n >= min_decisions,
                "above_threshold": n >= min_decisions and k / n > threshold(p0, n),
                "median_seconds": (
                    round(statistics.median(times[player]), 2) if times[player] else None
                ),
                "hands": sorted(hands[player], key=lambda h: -hands[player][h])[:10],
            }
        )
    found.sort(key=lambda f: (not f["enough"], f["p_value"] or 1.0, -f["match_rate"]))
    return found


def _stored_decisions(
    store: Store, per_player: int, total: int, since: float | None
) -> Iterator[Decision]:
    """Human decisions of finished hands, the newest hands first, replayed from their seeds."""
    from paiju.engine import record_format
    from paiju.fairness import deal_seed
    from paiju.games import game as make_game

    h = t.hands
    q = select(h).where(h.c.status == "over").order_by(h.c.id.desc())
    if since is not None:
        q = q.where(h.c.started_at >= since)
    counted: dict[int, int] = defaultdict(int)
    given = 0
    with store.engine.connect() as conn:
        hand_rows = conn.execute(q.limit(20 * total)).all()
        for row in hand_rows:
            players = list(row.players)
            humans = {p for p in players if p is not None and counted[p] < per_player}
            if not humans:
                continue
            try:
                g = make_game(str(row.code), **dict(row.game_options or {}))
            except Exception:
                continue
            if record_format(row.record_format) != g.record_format:
                continue
            acts = conn.execute(
                select(t.actions).where(t.actions.c.hand_id == row.id).order_by(t.actions.c.idx)
            ).all()
            state = g.new_state(
                int(row.seats),
                seed=deal_seed(str(row.seed), row.client_seeds),
                context=dict(row.context or {}),
            )
            before = float(row.started_at)
            for act in acts:
                action = g.parse_action(act.action)
                player = players[int(act.seat)]
                if act.actor == "player" and player is not None and counted[player] < per_player:
                    counted[player] += 1
                    given += 1
                    yield Decision(
                        player,
                        int(row.id),
                        state.clone(),
                        int(act.seat),
                        action,
                        max(0.0, float(act.at) - before),
                    )
                    if given >= total:
                        return
                state.apply(int(act.seat), action)
                before = float(act.at)


def assistance(
    store: Store,
    days: int | None = None,
    per_player: int = 200,
    total: int = 2000,
    min_decisions: int = 30,
    samples: int = 8,
) -> list[dict[str, Any]]:
    """:func:`assistance_of` over the stored hands (bounded: ``per_player``, ``total``)."""
    since = None if days is None else store.clock() - days * DAY
    decisions = _stored_decisions(store, per_player, total, since)
    seed = random.Random(0).randrange(2**32)
    bands = level_bands(store)
    found = assistance_of(decisions, lambda g: hard_chooser(g, seed, samples), min_decisions, bands)
    return Reviews(store).beside(found, per_player)  # the 复盘 summary's figures too


# -- CSV -----------------------------------------------------------------------------------


def _daily_rows(days: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    codes = sorted({code for d in days for code in d["hands"]})
    head = [
        "day",
        "active",
        "new_players",
        "hands",
        "rooms",
        "bot_share",
        "retention_d1",
        "retention_d7",
        "retention_d30",
        "clubs_active",
        "club_rooms",
        "club_hands",
        *[f"hands_{code}" for code in codes],
    ]
    rows = [
        [
            d["day"],
            d["active"],
            d["new_players"],
            sum(d["hands"].values()),
            sum(d["rooms"].values()),
            d["bot_share"],
            d["retention"]["d1"],
            d["retention"]["d7"],
            d["retention"]["d30"],
            d["clubs"]["active"],
            d["clubs"]["rooms"],
            d["clubs"]["hands"],
            *[d["hands"].get(code, 0) for code in codes],
        ]
        for d in days
    ]
    return head, rows


def _table(kind: str, found: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    """A report's rows as a header and lines of cells."""
    if kind == "daily":
        return _daily_rows(found)
    if kind == "collusion":
        head = ["player_a", "player_b", "shared_hands", "z", "p_value", "p_bonferroni", "hands"]
        return head, [
            [
                *f["players"],
                f["shared_hands"],
                f["z"],
                f["p_value"],
                f["p_bonferroni"],
                " ".join(map(str, f["hands"])),
            ]
            for f in found
        ]
    if kind == "assistance":
        head = [
            "player",
            "band",
            "baseline",
            "decisions",
            "matches",
            "match_rate",
            "others_rate",
            "threshold",
            "above_threshold",
            "p_value",
            "median_seconds",
            "hands",
        ]
        return head, [[*(f[k] for k in head[:-1]), " ".join(map(str, f["hands"]))] for f in found]
    if kind == "chat":
        head = ["id", "at", "room", "hand", "reporter", "reported", "seat", "lines"]
        head += ["handled_at", "handled_by", "outcome"]
        return head, [
            [
                *(r[k] for k in head[:6]),
                r["seat"] + 1,
                " | ".join(line["text"] for line in r["lines"]),
                r["handled_at"],
                r["handled_by"],
                r["outcome"],
            ]
            for r in found
        ]
    raise ValueError(f"no report {kind!r}")


def csv_text(kind: str, found: list[dict[str, Any]]) -> str:
    """A report (``daily``, ``collusion``, ``assistance``, ``chat``) as CSV text: one
    header line, then a line per row (an empty cell for a figure that has none)."""
    import csv
    import io

    head, rows = _table(kind, found)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    for row in rows:
        writer.writerow(["" if cell is None else cell for cell in row])
    return out.getvalue()
