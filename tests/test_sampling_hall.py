"""Hall's condition of the sampler's search (:func:`paiju.sampling._hall_ok`), checked on
the unions of the cards' sets of places where those are few, against every set of places."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.sampling import _hall_ok


def every_set_has_room(counts: dict[frozenset[int], int], room: list[int]) -> bool:
    """Hall's condition by its definition: every non-empty set of places has room for the
    cards that may go nowhere else."""
    for size in range(1, len(room) + 1):
        for subset in combinations(range(len(room)), size):
            chosen = frozenset(subset)
            if sum(n for k, n in counts.items() if k <= chosen) > sum(room[p] for p in chosen):
                return False
    return True


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_hall_on_the_unions_of_the_kinds_is_hall_on_every_set(data: st.DataObject) -> None:
    places = data.draw(st.integers(1, 6))
    room = data.draw(st.lists(st.integers(0, 5), min_size=places, max_size=places))
    kind = st.frozensets(st.integers(0, places - 1), max_size=places)
    counts = data.draw(st.dictionaries(kind, st.integers(0, 6), max_size=places + 1))
    assert _hall_ok(counts, room) == every_set_has_room(counts, room)


def test_one_kind_everywhere_needs_only_the_room_in_all() -> None:
    everywhere = frozenset(range(5))
    assert _hall_ok({everywhere: 20}, [4, 4, 4, 4, 4])
    assert not _hall_ok({everywhere: 21}, [4, 4, 4, 4, 4])
    assert not _hall_ok({everywhere: 18, frozenset({0}): 2}, [1, 5, 5, 5, 4])
