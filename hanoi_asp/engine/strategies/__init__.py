"""How clingo is driven, one module per strategy, all around the one horizon loop
(:mod:`hanoi_asp.engine.loop`) and the one search state (:mod:`hanoi_asp.engine.state`).

* :mod:`~hanoi_asp.engine.strategies.upward`: up the horizons from the lower bound.
* :mod:`~hanoi_asp.engine.strategies.mirror`: half a mirrored plan at an exact bound,
  then upward if clingo finds none.
* :mod:`~hanoi_asp.engine.strategies.halves`: up the half horizons of a whole tower.
* :mod:`~hanoi_asp.engine.strategies.exact`: one horizon, asked as it is (``--moves``).

The policy (:func:`hanoi_asp.engine.policy.choose_strategy`) picks one; the search
(:mod:`hanoi_asp.engine.search`) runs what every strategy shares first (the plan built
before the search, the lower bound, the answers they already give) and hands over.
"""
