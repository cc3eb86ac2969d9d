"""When Clue's counting passes turn to their compiled loops, and the switches tests flip.

The kernels themselves are declared once, in the game's declaration (:data:`.game.SPLIT_KERNEL`,
:data:`.game.ADVICE_KERNEL`: :class:`sleuth.jit.Kernel` objects, which load them once per process, cached on
disk): without numba, or with ``SLEUTH_CLUE_KERNEL=numpy`` (which tests use to compare both), every pass runs
its numpy code.  The split passes (:mod:`.split`) and the advice (:mod:`.suggest`) read the values here when
they run, so that a test sets them on this module.
"""

from __future__ import annotations

KERNEL_FROM = 20_000   # entries in a layer of a split pass from which its remaining steps run compiled
COLD_KERNEL_WORK = 1_000_000  # ... once the layer entries the pass handled in numpy, and this layer's times
# the steps left, reach this many (about 0.15 s of numpy), where this process has not loaded the kernel yet:
# loading numba and the kernel takes 0.6-0.9 s, more than the whole numpy pass of most states (a command
# line's only answer)

TWO_STEPS = True   # a compiled split call runs two steps where it may (tests compare with one step per call)
COPIES = True   # compiled split calls keep records that are whole multiples of another as copies (tests turn it off)
COPY_FROM = 8   # entries of a child record from which a compiled call checks whether it is a copy (fewer save little)
