"""防作弊 at the table, before the first deal: which seated players share a network address
(同IP提醒), and which of those who shared their location sit closer than the operator's
distance (GPS距离提醒, the limit ``nearby_distance``, 200 m by default); a room with the
option ``refuse_nearby`` refuses such a seat (:func:`refusal`).

Free of sockets and of the database: a room keeps one :class:`Whereabouts` in memory and
asks it. What it holds is never written anywhere: a seat's addresses (as the connection
shows them) and, with the player's consent, the point their browser gave, until the
room's first deal (:meth:`Whereabouts.forget_points`); what the table is told is the
distance alone, in whole metres (docs/fairness.md, "Who sits near whom").
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass

from paiju.server.errors import ServerError

__all__ = [
    "EARTH_RADIUS",
    "NearPair",
    "Point",
    "Whereabouts",
    "distance",
    "refusal",
    "same_address",
]

EARTH_RADIUS = 6_371_008.8
"""The Earth's mean radius in metres (IUGG), for :func:`distance`."""


@dataclass(frozen=True)
class Point:
    """A point a browser gave (``navigator.geolocation``): latitude and longitude in
    degrees."""

    lat: float
    lon: float

    def __post_init__(self) -> None:
        if not (-90.0 <= self.lat <= 90.0 and -180.0 <= self.lon <= 180.0):
            raise ServerError("bad_message", "a location is a latitude and a longitude in degrees")


def distance(a: Point, b: Point) -> float:
    """Metres between two points on the Earth's surface (the haversine formula)."""
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(h)))


def _canonical(address: str) -> str:
    """An address as one machine is known: an IPv4 address written as IPv6
    (``::ffff:1.2.3.4``) is the IPv4 one; anything else as it came."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def same_address(a: set[str], b: set[str]) -> bool:
    """Whether two seats were seen from one address."""
    return not {_canonical(x) for x in a}.isdisjoint({_canonical(x) for x in b})


@dataclass(frozen=True)
class NearPair:
    """Two seats (lower first) that share an address, or sit closer than the limit, or
    both; ``metres`` is their distance in whole metres when they are that close (None:
    not, or not both shared a location)."""

    seats: tuple[int, int]
    same_address: bool
    metres: int | None


class Whereabouts:
    """Where each seat of a room is, as far as the room may know: the addresses its
    player was seen from, and the point they shared (kept until the first deal)."""

    def __init__(self, seats: int) -> None:
        self.addresses: list[set[str]] = [set() for _ in range(seats)]
        self.points: list[Point | None] = [None] * seats

    def seen(self, seat: int, address: str | None) -> bool:
        """The seat's player came from ``address``; whether that is new."""
        if not address or address in self.addresses[seat]:
            return False
        self.addresses[seat].add(address)
        return True

    def located(self, seat: int, point: Point | None) -> bool:
        """The seat's player shared ``point`` (None: took it back); whether it changed."""
        if self.points[seat] == point:
            return False
        self.points[seat] = point
        return True

    def left(self, seat: int) -> None:
        """The seat's player left it: nothing of them is kept."""
        self.addresses[seat] = set()
        self.points[seat] = None

    def forget_points(self) -> None:
        """The first deal: every shared point is forgotten."""
        self.points = [None] * len(self.points)

    def shared(self) -> list[bool]:
        """Which seats shared a location."""
        return [p is not None for p in self.points]

    def pairs(self, limit: float) -> list[NearPair]:
        """Every pair of seats that share an address or sit closer than ``limit`` metres
        (0: no distance is told)."""
        out = []
        n = len(self.points)
        for i in range(n):
            for j in range(i + 1, n):
                found = self._pair(i, self.addresses[j], self.points[j], limit, j)
                if found is not None:
                    out.append(found)
        return out

    def _pair(
        self, seat: int, addresses: set[str], point: Point | None, limit: float, other: int
    ) -> NearPair | None:
        same = same_address(self.addresses[seat], addresses)
        mine = self.points[seat]
        metres = None
        if limit > 0 and mine is not None and point is not None:
            apart = distance(mine, point)
            metres = round(apart) if apart < limit else None
        if not same and metres is None:
            return None
        return NearPair((min(seat, other), max(seat, other)), same, metres)

    def near(
        self, seats: list[int], address: str | None, point: Point | None, limit: float
    ) -> NearPair | None:
        """The first of ``seats`` (those held by other players) near a newcomer from
        ``address`` at ``point``, as a pair with the newcomer's seat as ``-1``."""
        addresses = {address} if address else set()
        for seat in seats:
            found = self._pair(seat, addresses, point, limit, -1)
            if found is not None:
                return found
        return None


def refusal(pair: NearPair, room: int, limit: float) -> ServerError:
    """The refusal of a seat near another player's in a room with ``refuse_nearby``."""
    seat = max(pair.seats)
    if pair.same_address:
        return ServerError(
            "too_near_address",
            f"room {room} refuses a seat from the address of the player in seat {seat}",
            409,
            seat=seat,
        )
    return ServerError(
        "too_near",
        f"room {room} refuses a seat {pair.metres} m from the player in seat {seat}"
        f" (the operator's limit is {limit:g} m)",
        409,
        seat=seat,
        metres=pair.metres,
        limit=round(limit),
    )
