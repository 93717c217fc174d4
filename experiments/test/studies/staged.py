"""A test study with a second stage: vecadd throttled to 2 and to 4 warps per scheduler (gpusim
options through Variant.args), then PCAL at the faster of the two limits (experiments/test)."""
from core import Figure, Point, Variant, ipc

NAME = "staged"
TITLE = "Two-stage test of the experiments runner"
PAPER = "none (test)"
PRESET = "gtx480"
HIDDEN = True

LIMITS = {2: Variant("w2", "2 warps", "baseline", args=("--warp-limit", "2")),
          4: Variant("w4", "4 warps", "baseline", args=("--warp-limit", "4"))}


def best_limit(res):
    return max((ipc(res.get("vecadd", v.name)), limit) for limit, v in LIMITS.items())[1]


def points(ctx):
    return [Point(PRESET, "vecadd", v) for v in LIMITS.values()]


def more_points(ctx, res):
    limit = best_limit(res)
    return [Point(PRESET, "vecadd", Variant("pcal", "PCAL", "pcal", args=("--warp-limit", str(limit))))]


def analyse(ctx, res):
    rows = [["vecadd", best_limit(res), res.normalised(ipc, "vecadd", "pcal", f"w{best_limit(res)}")]]
    return [Figure("best", "best limit, PCAL there", ["workload", "limit", "PCAL / throttled"], rows, plot=False)], []
