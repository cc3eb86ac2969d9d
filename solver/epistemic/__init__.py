"""The epistemic layer: worlds, agents who observe parts of a world, knowledge, announcements and events.

Knowledge of others is modelled as nested models per agent: what agent *a* knows in world *w* is what holds
in every world *a* considers possible from *w*.  At the start that is every world with the same observed
values (a partition, S5).  Events (action models with preconditions and factual change, private and
semi-private announcements) replace worlds by (world, event) pairs, and an agent's relation by the product
of its relation and its relation over the events; a private event can leave an agent believing something
false, so a relation is stored as *belief cells* (:class:`Relation`, KD45), a partition being the special
case.  Worlds are rows of a vectorised table (numpy), so the knowledge operators are a grouping and a
reduction, and announcements are row filters; the set of worlds a puzzle starts from can be built by brute
force over the product of the domains (vectorised, chunked) or enumerated by a constraint solver, and the
two must agree.

Arithmetic is exact.  Every integer expression has a range computed from the domains (:meth:`Evaluator.bounds`);
it is evaluated in ``int64`` only where that range (and its operands') fits, otherwise on object arrays of
Python integers.  Tables whose values leave ``int64`` are object arrays.  Formulas compiled for a constraint
solver are refused, with the expression and its range, when a range leaves :data:`SOLVER_LIMIT`.

The layers are modules: :mod:`.tables` (domains, world tables, the declarative model of the starting worlds),
:mod:`.evaluation` (formulas over every world at once), :mod:`.explicit` (belief cells, action models, the
explicit epistemic state and its updates), :mod:`.compilation` (formulas as constraints of a declarative model), and
beside them :mod:`.symbolic` (the same puzzles as knowledge structures on binary decision diagrams).

>>> table = WorldTable.from_product({"x": range(1, 4), "y": range(1, 4)}, ["x <= y"])
>>> state = ExplicitState(table, {"S": ["x + y"], "P": ["x * y"]})
>>> state.count, state.announce("knows(S)").count
(6, 4)
"""

from .compilation import SOLVER_LIMIT, ModelCompiler, NotCompilable
from .evaluation import BOOL, INT, INT64_MAX, Evaluator, Kind, fits_int64
from .explicit import ActionModel, Event, ExplicitState, Relation, assigned, common
from .tables import CHUNK, DEFAULT_TABLE_LIMIT, Domain, WorldTable, table_dtype, world_model
from ..knowledge import group_ids

__all__ = ["BOOL", "CHUNK", "DEFAULT_TABLE_LIMIT", "INT", "INT64_MAX", "SOLVER_LIMIT", "ActionModel", "Domain",
           "Evaluator", "Event", "Kind", "ExplicitState", "ModelCompiler", "NotCompilable", "Relation", "WorldTable",
           "assigned", "common", "fits_int64", "group_ids", "table_dtype", "world_model"]
