// btree (BT, Rodinia b+tree findK): point queries on a B+ tree of order 256 (Rodinia's knode:
// location, indices[257], keys[257], is_leaf, num_keys: 2068 B per node, root first). One CTA
// of 256 threads per query, walking one level per step:
//   per internal level: if (node.keys[thid] <= key && node.keys[thid+1] > key)
//                         offset[bid] = node.indices[thid];     __syncthreads();
//                       if (thid == 0) curr[bid] = offset[bid];  __syncthreads();
//   leaf: if (node.keys[thid] == key) ans[bid] = records[node.indices[thid]].value
// The node visited depends on the keys loaded: irregular (pointer chasing), with hot upper levels.
#include <algorithm>
#include <climits>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kOrder = 256, kSlots = kOrder + 1;
constexpr uint32_t kWords = 1 + kSlots + kSlots + 2;  // location, indices, keys, is_leaf, num_keys
constexpr uint32_t kIndices = 1, kKeys = 1 + kSlots;

class Btree final : public GeneratedWorkload {
 public:
  std::string name() const override { return "btree"; }
  std::string description() const override { return "Rodinia b+tree findK: one CTA per query walks the tree"; }
  WorkloadInfo info() const override {
    return {true, false, "Rodinia (BT)",
            nodes_ ? std::to_string(keys_->size()) + " keys, " + std::to_string(nodes_) + " nodes, " +
                         std::to_string(queries_->size()) + " queries"
                   : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint32_t n = by_scale(scale, 4096u, 65536u, 1u << 20), q = by_scale(scale, 90u, 1536u, 16384u);
    Rng rng(mix_seed(seed, "btree"));
    std::vector<int32_t> keys(n);
    for (auto& k : keys) k = static_cast<int32_t>(rng.below(INT_MAX / 2));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    // Levels bottom-up: a level's nodes, each as (first child / record, count, min key).
    std::vector<std::vector<std::vector<std::pair<int32_t, int32_t>>>> levels;  // node -> (key, index) slots
    std::vector<std::vector<std::pair<int32_t, int32_t>>> level;
    for (size_t i = 0; i < keys.size(); i += kOrder - 1) {
      level.emplace_back();
      for (size_t j = i; j < std::min(keys.size(), i + kOrder - 1); ++j)
        level.back().emplace_back(keys[j], static_cast<int32_t>(j));
    }
    levels.push_back(level);
    while (levels.back().size() > 1) {
      const auto& below = levels.back();
      level.clear();
      for (size_t i = 0; i < below.size(); i += kOrder) {
        level.emplace_back();
        for (size_t j = i; j < std::min(below.size(), i + kOrder); ++j)
          level.back().emplace_back(below[j][0].first, static_cast<int32_t>(j));
      }
      levels.push_back(level);
    }
    // Number the nodes root first; children indices become node numbers.
    std::vector<int32_t> first(levels.size());
    int32_t count = 0;
    for (size_t l = levels.size(); l-- > 0;) first[l] = count, count += static_cast<int32_t>(levels[l].size());
    std::vector<int32_t> knodes(static_cast<uint64_t>(count) * kWords, 0);
    for (size_t l = 0; l < levels.size(); ++l) {
      for (size_t i = 0; i < levels[l].size(); ++i) {
        int32_t* node = &knodes[static_cast<uint64_t>(first[l] + static_cast<int32_t>(i)) * kWords];
        node[0] = first[l] + static_cast<int32_t>(i);
        for (uint32_t s = 0; s < kSlots; ++s) node[kKeys + s] = INT_MAX;
        for (size_t s = 0; s < levels[l][i].size(); ++s) {
          node[kKeys + s] = levels[l][i][s].first;
          node[kIndices + s] = l == 0 ? levels[l][i][s].second : first[l - 1] + levels[l][i][s].second;
        }
        node[kKeys + kSlots] = l == 0;
        node[kKeys + kSlots + 1] = static_cast<int32_t>(levels[l][i].size());
      }
    }
    std::vector<int32_t> records(keys.size()), queries(q);
    for (auto& r : records) r = static_cast<int32_t>(rng.below(1000000));
    for (auto& k : queries) k = keys[rng.below(keys.size())];
    nodes_ = static_cast<uint32_t>(count), keys_ = share(keys), records_ = share(records), queries_ = share(queries);
    auto kn = share(knodes);
    const auto qs = queries_, recs = records_;
    const uint32_t height = static_cast<uint32_t>(levels.size());
    const Addr kn_base = layout_.array(mem, "knodes", knodes), rec_base = layout_.array(mem, "records", records);
    const Addr q_base = layout_.array(mem, "keys", queries);
    const Addr cur_base = layout_.array(mem, "currKnode", std::vector<int32_t>(q, 0));
    const Addr off_base = layout_.array(mem, "offset", std::vector<int32_t>(q, 0));
    const Addr ans_base = layout_.array(mem, "ans", std::vector<int32_t>(q, -1));

    KernelCode k(kFirstKernelPc);
    const StaticOp ids = k.alu(kLatInt), ld_cur = k.load(4), addr = k.alu(kLatIntMad), ld_k0 = k.load(4);
    const StaticOp ld_key = k.load(4), ld_k1 = k.load(4), cmp = k.alu(kLatInt), ld_off = k.load(4), ld_idx = k.load(4);
    const StaticOp chk = k.alu(kLatInt), st_off = k.store(4), bar1 = k.barrier(), ld_off0 = k.load(4);
    const StaticOp st_cur = k.store(4), bar2 = k.barrier(), loop = k.alu(kLatInt), ld_cur2 = k.load(4);
    const StaticOp ld_lk = k.load(4), ld_key2 = k.load(4), eq = k.alu(kLatInt), ld_li = k.load(4), ld_rec = k.load(4);
    const StaticOp st_ans = k.store(4), exit = k.exit();
    add_kernel(
        "findK", uint64_t{q} * kOrder,
        [=](WarpStream& s, const WarpCoords& w) {
          const uint64_t bid = w.cta;
          const int32_t key = (*qs)[bid];
          const uint32_t all = w.mask_below(UINT64_MAX), t0 = w.warp == 0 ? 1u : 0u;
          const auto word = [&](int64_t node, uint64_t i) {
            return kn_base + 4 * (static_cast<uint64_t>(node) * kWords + i);
          };
          const auto val = [&](int64_t node, uint64_t i) { return (*kn)[static_cast<uint64_t>(node) * kWords + i]; };
          int64_t node = 0;
          s.alu(ids, all);
          for (uint32_t lvl = 0; lvl + 1 < height; ++lvl) {
            s.load(ld_cur, all, [&](uint32_t) { return cur_base + 4 * bid; });
            s.alu(addr, all);
            s.load(ld_k0, all, [&](uint32_t l) { return word(node, kKeys + w.thread_in_cta(l)); });
            s.load(ld_key, all, [&](uint32_t) { return q_base + 4 * bid; });
            s.alu(cmp, all);
            const uint32_t le =
                lanes_where(all, [&](uint32_t l) { return val(node, kKeys + w.thread_in_cta(l)) <= key; });
            s.load(ld_k1, le, [&](uint32_t l) { return word(node, kKeys + w.thread_in_cta(l) + 1); });
            const uint32_t hit =
                lanes_where(le, [&](uint32_t l) { return val(node, kKeys + w.thread_in_cta(l) + 1) > key; });
            s.load(ld_off, hit, [&](uint32_t) { return off_base + 4 * bid; });
            s.load(ld_idx, hit, [&](uint32_t l) { return word(node, kIndices + w.thread_in_cta(l)); });
            s.alu(chk, hit);
            int64_t child = node;  // the matching slot's child (one thread of the CTA finds it)
            for (uint32_t t = 0; t < kOrder; ++t)
              if (val(node, kKeys + t) <= key && val(node, kKeys + t + 1) > key) child = val(node, kIndices + t);
            s.store(st_off, hit, [&](uint32_t) {
              return LaneWrite{off_base + 4 * bid, bits(static_cast<int32_t>(child))};
            });
            s.barrier(bar1);
            s.load(ld_off0, t0, [&](uint32_t) { return off_base + 4 * bid; });
            s.store(st_cur, t0, [&](uint32_t) {
              return LaneWrite{cur_base + 4 * bid, bits(static_cast<int32_t>(child))};
            });
            s.barrier(bar2);
            s.alu(loop, all);
            node = child;
          }
          s.load(ld_cur2, all, [&](uint32_t) { return cur_base + 4 * bid; });
          s.load(ld_lk, all, [&](uint32_t l) { return word(node, kKeys + w.thread_in_cta(l)); });
          s.load(ld_key2, all, [&](uint32_t) { return q_base + 4 * bid; });
          s.alu(eq, all);
          const uint32_t found =
              lanes_where(all, [&](uint32_t l) { return val(node, kKeys + w.thread_in_cta(l)) == key; });
          s.load(ld_li, found, [&](uint32_t l) { return word(node, kIndices + w.thread_in_cta(l)); });
          const auto rec = [&](uint32_t l) { return static_cast<uint64_t>(val(node, kIndices + w.thread_in_cta(l))); };
          s.load(ld_rec, found, [&](uint32_t l) { return rec_base + 4 * rec(l); });
          s.store(st_ans, found, [&](uint32_t l) { return LaneWrite{ans_base + 4 * bid, bits((*recs)[rec(l)])}; });
          s.exit(exit);
        },
        kOrder);
  }

 protected:
  void check(ResultCheck& c) const override {  // every query key exists: its record's value
    std::vector<int32_t> want(queries_->size());
    for (size_t i = 0; i < want.size(); ++i) {
      const auto it = std::lower_bound(keys_->begin(), keys_->end(), (*queries_)[i]);
      want[i] = (*records_)[static_cast<size_t>(it - keys_->begin())];
    }
    c.exact("ans", want);
  }

 private:
  uint32_t nodes_ = 0;
  Shared<int32_t> keys_, records_, queries_;
};

}  // namespace

std::unique_ptr<Workload> make_btree() { return std::make_unique<Btree>(); }

}  // namespace l1d::sim::wl
