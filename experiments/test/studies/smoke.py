"""The test study: two points (vecadd, baseline and a DyCache-25 policy override) and one
figure, enough to run the whole runner in seconds at --scale test (experiments/test)."""
from core import Comparison, Figure, Variant, grid, ipc, miss_rate

NAME = "smoke"
TITLE = "Smoke test of the experiments runner"
PAPER = "none (test)"
PRESET = "gtx480"
HIDDEN = True

VARIANTS = [Variant("base", "baseline", "baseline"),
            Variant("dy25", "DyCache-25", "dycache", over={"dycache": {"threshold_pct": 25}})]


def points(ctx):
    return grid([PRESET], ["vecadd"], VARIANTS)


def analyse(ctx, res):
    rows = [["vecadd", res.normalised(ipc, "vecadd", "dy25", "base"), res.metric(miss_rate, "vecadd", "base"),
             res.metric(miss_rate, "vecadd", "dy25")]]
    fig = Figure("ipc", "vecadd: DyCache-25 IPC over baseline, miss rates", ["workload", "IPC dy25/base",
                 "miss base", "miss dy25"], rows, ylabel="ratio", hline=1.0)
    return [fig], [Comparison("IPC of DyCache-25 over baseline", rows[0][1], paper=1.0, paper_text="no number",
                              variants=("base", "dy25"))]
