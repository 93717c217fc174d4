"""A test study with one good point and one whose policy gpusim rejects (threshold_pct 0 is
out of range): the runner must run the good one, report the bad one and exit 1."""
from core import Figure, Variant, grid, ipc

NAME = "broken"
TITLE = "A study with a failing point (test)"
PAPER = "none (test)"
PRESET = "gtx480"
HIDDEN = True


def points(ctx):
    return grid([PRESET], ["vecadd"], [Variant("base", "baseline", "baseline"),
                                       Variant("bad", "bad", "dycache", over={"dycache": {"threshold_pct": 0}})])


def analyse(ctx, res):
    rows = [["vecadd", res.metric(ipc, "vecadd", "base"), res.metric(ipc, "vecadd", "bad")]]
    return [Figure("ipc", "IPC", ["workload", "base", "bad"], rows, plot=False)], []
