"""Peers of hanoi-asp for side-by-side benchmarks (issue #14): Fast Downward on a PDDL
translation, and the ASP Competition's own encoding."""
