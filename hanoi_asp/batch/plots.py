"""The plots of ``hanoi-asp report``: a cactus plot and two-configuration scatters (for
more than two configurations, the first against each other one).

matplotlib is the standard for these plots in ASP and planning papers; it is an
optional extra (``pip install 'hanoi-asp[report]'``), imported only here, inside the
functions, with the Agg backend (no display needed).  Each function returns the figure
as ``svg`` text or ``png`` bytes.

* cactus: per configuration, its instances proven within its time limit sorted by
  time; the k-th point is (k, time of the k-th fastest): a line further right solves
  more, a lower line solves them faster.  The time axis is logarithmic.
* scatter: one point per instance both configurations ran, time of the first (x)
  against time of the second (y), log-log, with the diagonal; an instance not proven
  within the limit (timeout, plan not proven minimal, error) is drawn at the limit as
  a cross.  Points below the diagonal are instances the second configuration does faster.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Literal

from hanoi_asp.batch.report import Outcome, Report
from hanoi_asp.outputs.safe_text import visible_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Format = Literal["svg", "png"]

FLOOR_S = 0.001
"""Times below a millisecond are drawn at one (a log axis has no zero)."""

PROVEN_STYLE: dict[str, Any] = {"s": 10, "alpha": 0.6, "label": "both proven"}
LIMIT_STYLE: dict[str, Any] = {"s": 24, "marker": "x", "color": "tab:red", "label": "at the limit"}
ERROR_STYLE: dict[str, Any] = {
    "s": 24,
    "marker": "s",
    "facecolors": "none",
    "edgecolors": "tab:purple",
    "label": "an ERROR (drawn at the limit)",
}
"""An instance that failed (no answer at all) is no timeout: drawn apart."""
PointKind = Literal["proven", "limit", "error"]

INSTALL_HINT = "the plots need matplotlib: pip install 'hanoi-asp[report]'"


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure() -> Figure:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(6.4, 4.8), layout="constrained")


def _save(figure: Figure, form: Format) -> str | bytes:
    buffer = io.BytesIO()
    # no date in an SVG: the same results give the same page
    metadata = {"Date": None} if form == "svg" else {}
    figure.savefig(buffer, format=form, dpi=100, metadata=metadata)
    data = buffer.getvalue()
    return data.decode("utf-8") if form == "svg" else data


MARKERS_UP_TO = 200
"""A cactus line with more points than this is drawn without markers (a marker per
point makes an SVG of a megabyte for 5,000 instances, and shows nothing more)."""

RASTER_FROM = 500
"""A scatter with more points than this has its points (only) as an image in the SVG."""


class Drawings:
    """The plots of one report, each drawn once and saved once per format asked for:
    the HTML page and the ``--plots`` files share them."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.pairs = scatter_choices(report.configs)
        self.names = ["cactus", *self.pairs]
        self._figures: dict[str, Figure] = {}
        self._saved: dict[tuple[str, Format], str | bytes] = {}

    def get(self, name: str, form: Format) -> str | bytes:
        if (name, form) not in self._saved:
            if name not in self._figures:
                if name == "cactus":
                    self._figures[name] = cactus_figure(self.report)
                else:
                    self._figures[name] = scatter_figure(self.report, self.pairs[name])
            self._saved[(name, form)] = _save(self._figures[name], form)
        return self._saved[(name, form)]


def scatter_choices(configs: list[str]) -> dict[str, tuple[str, str]]:
    """The scatter plots of a report, by name: ``scatter`` for exactly two
    configurations; for more, the first against each other one,
    ``scatter-FIRST-vs-OTHER`` (a batch's own engine against each planner, when it is
    named first).

    >>> list(scatter_choices(["ours", "fd", "symk"]))
    ['scatter-ours-vs-fd', 'scatter-ours-vs-symk']
    """
    if len(configs) == 2:
        return {"scatter": (configs[0], configs[1])}
    first = configs[0] if configs else ""
    return {f"scatter-{first}-vs-{other}": (first, other) for other in configs[1:]}


def cactus_plot(report: Report, form: Format = "svg") -> str | bytes:
    """The cactus plot as ``form``."""
    return _save(cactus_figure(report), form)


def scatter_plot(report: Report, form: Format = "svg") -> str | bytes:
    """The scatter plot of exactly two configurations as ``form``."""
    return _save(scatter_figure(report, scatter_choices(report.configs)["scatter"]), form)


def cactus_figure(report: Report) -> Figure:
    """Instances proven (x) against the time each took (y, log), one line per configuration."""
    from matplotlib.ticker import MaxNLocator

    figure = _figure()
    axes = figure.subplots()
    for config, limit in report.limits.items():
        times = sorted(
            max(o.time_s or 0.0, FLOOR_S)
            for o in report.outcomes
            if o.config == config and o.proven_within(limit)
        )
        marker = "." if len(times) <= MARKERS_UP_TO else None
        axes.plot(
            range(1, len(times) + 1), times, marker=marker, markersize=3, label=_label(config)
        )
    axes.set_yscale("log")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("instances proven")
    axes.set_ylabel("time (s)")
    axes.set_title("Cactus plot: instances proven within the time limit")
    axes.grid(True, which="both", alpha=0.3)
    if report.limits:
        axes.legend()
    return figure


def scatter_pairs(
    report: Report, pair: tuple[str, str] | None = None
) -> tuple[str, str, list[tuple[float, float, PointKind]]]:
    """The two configurations (``pair``, default the report's two) and, per instance
    both ran, (time of the first, time of the second, ``proven`` by both, else ``error``
    where either is an ``ERROR`` row, else ``limit``: either drawn at its limit)."""
    first, second = pair or (report.configs[0], report.configs[1])
    by_config: dict[str, dict[str, Outcome]] = {first: {}, second: {}}
    for outcome in report.outcomes:
        if outcome.config in by_config:
            by_config[outcome.config][outcome.instance] = outcome
    fallback = max((o.time_s or 0.0 for o in report.outcomes), default=1.0)

    def place(outcome: Outcome) -> tuple[float, bool]:
        limit = report.limits[outcome.config]
        if outcome.proven_within(limit):
            return max(outcome.time_s or 0.0, FLOOR_S), False
        return max(limit if limit is not None else fallback, FLOOR_S), True

    points = []
    for instance, a in by_config[first].items():
        b = by_config[second].get(instance)
        if b is not None:
            (x, x_out), (y, y_out) = place(a), place(b)
            kind: PointKind = "error" if a.error or b.error else "limit"
            points.append((x, y, kind if x_out or y_out else "proven"))
    return first, second, points


def scatter_figure(report: Report, pair: tuple[str, str] | None = None) -> Figure:
    """Per-instance times of two configurations (``pair``, default the report's two),
    log-log, with the diagonal."""
    first, second, points = scatter_pairs(report, pair)
    figure = _figure()
    axes = figure.subplots()
    styles = (("proven", PROVEN_STYLE), ("limit", LIMIT_STYLE), ("error", ERROR_STYLE))
    for drawn, style in styles:
        xs = [x for x, _, kind in points if kind == drawn]
        ys = [y for _, y, kind in points if kind == drawn]
        if xs:
            axes.scatter(xs, ys, rasterized=len(points) > RASTER_FROM, **style)
    values = [v for x, y, _ in points for v in (x, y)] or [FLOOR_S, 1.0]
    low, high = min(values) / 1.5, max(values) * 1.5
    axes.plot([low, high], [low, high], color="grey", linewidth=1, linestyle="--")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(low, high)
    axes.set_aspect("equal")
    axes.set_xlabel(f"{_label(first)}: time (s)")
    axes.set_ylabel(f"{_label(second)}: time (s)")
    axes.set_title(f"{len(points)} instances: {_label(first)} vs {_label(second)}")
    axes.grid(True, which="both", alpha=0.3)
    if points:
        axes.legend()
    return figure


def _label(name: str) -> str:
    """A configuration's name as a plot shows it: what prints nothing escaped (a glyph
    matplotlib lacks is a warning), and ``$`` escaped (matplotlib reads the text between
    two as TeX math, and ends in a traceback where that is no math)."""
    return visible_text(name).replace("$", r"\$")
