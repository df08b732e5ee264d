"""Shared team brains: contributions out, a collective wiki in (docs/team.md).

A member opts in domains; ``contribute`` turns their pages' changes into compact deltas
(names, facts with citations, links; never raw pages or paths) in a shared git repository;
``synthesise`` builds the collective wiki from every member's deltas, deterministically;
``pull`` brings it back as the read-only mirror domain ``wiki/shared-<team>/``.
"""

from mnemex.team.ops import (
    Membership,
    contribute,
    init_team,
    join_team,
    leave_team,
    membership,
    pull,
    remove_member,
    status,
    synthesise,
)

__all__ = [
    "Membership",
    "contribute",
    "init_team",
    "join_team",
    "leave_team",
    "membership",
    "pull",
    "remove_member",
    "status",
    "synthesise",
]
