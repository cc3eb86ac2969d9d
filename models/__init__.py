

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # every built-in game implements the Game interface's world module (checked by mypy)
    from sleuth.game import WorldModule

    from .cardguess import world as cardguess_world
    from .clue import world as clue_world
    from .egghead import world as egghead_world
    from .epistemic import world as epistemic_world
    from .mascarade import world as mascarade_world
    from .motus import world as motus_world

    WORLDS: tuple[WorldModule, ...] = (cardguess_world, clue_world, egghead_world, epistemic_world,
                                       mascarade_world, motus_world)
