// Warp operations: shuffles, votes, __syncwarp and coalesced_threads(), completed once every lane
// of the mask has arrived (or exited); mismatched masks and shuffles from exited lanes are reported.
#include <algorithm>
#include <cstdio>

#include "scheduler.hpp"

namespace wd {
namespace rt {
namespace {

void warp_diag(Block& b, const Thread& t, const std::string& message, const std::string& detail, const std::string& key,
               const char* code, const JsonObject& params) {
  Diag d;
  d.kind = "warp_mask";
  d.message = message;
  d.code = code;
  d.params_json = params.str();
  d.line = t.wline;
  d.block = b.bid;
  d.thread = t.tid;
  d.has_ids = true;
  d.detail_json = detail;
  d.key = "warp:" + key;
  d.order = b.linear_bid;
  add_diag(std::move(d));
}

}  // namespace

std::string mask_hex(unsigned m) {
  char buf[16];
  snprintf(buf, sizeof buf, "0x%08x", m);
  return buf;
}

bool release_warps(Block& b) {
  bool released = false;
  if (b.at_warp == 0) return false;
  int n = static_cast<int>(b.threads.size());
  for (int w0 = 0; w0 < n; w0 += 32) {
    int lanes = std::min(32, n - w0);
    unsigned exists = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
    for (int l = 0; l < lanes; ++l) {
      Thread& lead = b.threads[w0 + l];
      if (lead.state != kAtWarp) continue;
      if (lead.wop == detail::kCoalesce) {
        // coalesced_threads(): the lanes at this call form the group once no lane of the warp
        // is still running (the others exited or wait at another barrier or warp operation).
        unsigned group = 0;
        bool ready = true;
        for (int j = 0; j < lanes && ready; ++j) {
          const Thread& t = b.threads[w0 + j];
          if (t.state == kAtWarp && t.wop == detail::kCoalesce && t.wsite == lead.wsite) group |= 1u << j;
          else if (t.state == kRunnable) ready = false;
        }
        if (!ready) continue;
        for (int j = 0; j < lanes; ++j)
          if (group >> j & 1) { b.threads[w0 + j].wresult = group; b.threads[w0 + j].state = kRunnable; }
        b.at_warp -= __builtin_popcount(group);
        b.events++;
        released = true;
        continue;
      }
      unsigned m = (lead.wmask | (1u << l)) & exists;
      bool ready = true;
      unsigned group = 0, exited = 0;
      for (int j = 0; j < lanes; ++j) {
        if (!(m >> j & 1)) continue;
        const Thread& t = b.threads[w0 + j];
        // The PTX ISA's wait (shfl.sync, vote.sync, bar.warp.sync): until every non-exited lane of the
        // mask has executed the operation "with the same qualifiers and same membermask". A lane of the
        // mask waiting in another kind of operation (a vote beside a shuffle, shfl.down beside shfl.bfly,
        // __syncwarp beside a vote) or with another mask never satisfies it: the lead's lanes wait on, and
        // when nothing else can run the block is a deadlock (docs/synchronization.md row 12c). A lane in
        // coalesced_threads() is released by that call first.
        if (t.state == kAtWarp && t.wop != detail::kCoalesce && t.wop == lead.wop && t.wmask == lead.wmask) {
          group |= 1u << j;
        } else if (t.state == kExited) {
          exited |= 1u << j;
        } else {
          if (t.state == kAtWarp && t.wop != detail::kCoalesce && !lead.wheld_line)
            lead.wheld_lane = j, lead.wheld_line = t.wline, lead.wheld_mask = t.wmask;
          ready = false;
          break;
        }
      }
      if (!ready) continue;
      std::string where = "line " + std::to_string(lead.wline) + " (block " + tid_str(b.bid) + ", warp " +
                          std::to_string(w0 / 32) + ")";
      // Lanes of the mask that exited: "all non-exited threads named in mask must execute the same
      // intrinsic" (Programming Guide), so a vote or __syncwarp without them is defined (the H200
      // completes it cleanly); a shuffle that reads an exited lane's value gets an undefined one
      // (docs/synchronization.md row 12). Which lanes read an exited one is decided below.
      bool reads_exited = false;
      // The same operation and mask reached through different calls: the PTX ISA's wait is satisfied
      // and sm_70+ lets them through together. For __syncwarp the Programming Guide says so too ("a
      // corresponding __syncwarp()"; only sm_6x needs the same one in convergence): no finding. For a
      // vote or a shuffle the Guide asks for "the same intrinsic": undefined, a WARP_MASK finding
      // (row 12d).
      // Lanes held while others of their mask waited in another operation, released once those exited:
      // the Programming Guide's "same intrinsic with the same mask" was not kept (undefined), a finding.
      for (int j = 0; j < lanes; ++j) {
        Thread& t = b.threads[w0 + j];
        if (!(group >> j & 1) || !t.wheld_line) continue;
        warp_diag(b, t,
                  "Lanes of one warp meet at different warp operations or with different masks: lane " + std::to_string(j) +
                      " at line " + std::to_string(t.wline) + " with mask " + mask_hex(t.wmask) + ", lane " +
                      std::to_string(t.wheld_lane) + " at line " + std::to_string(t.wheld_line) + " with mask " +
                      mask_hex(t.wheld_mask) + " (block " + tid_str(b.bid) + ").",
                  "{\"other_line\": " + std::to_string(t.wheld_line) + ", \"mask\": \"" + mask_hex(t.wmask) +
                      "\", \"other_mask\": \"" + mask_hex(t.wheld_mask) + "\", \"held\": true}",
                  "mismatch:" + std::to_string(t.wline) + ":" + std::to_string(t.wheld_line), "RUNTIME_WARP_MISMATCH",
                  JsonObject()
                      .add("lane", j)
                      .add("line", t.wline)
                      .add("mask", mask_hex(t.wmask))
                      .add("other_lane", t.wheld_lane)
                      .add("other_line", t.wheld_line)
                      .add("other_mask", mask_hex(t.wheld_mask))
                      .add("block", tid_str(b.bid)));
        break;
      }
      for (int j = 0; j < lanes; ++j)
        if (group >> j & 1) b.threads[w0 + j].wheld_line = 0;
      for (int j = 0; j < lanes && lead.wop != detail::kSyncWarp; ++j) {
        const Thread& t = b.threads[w0 + j];
        if ((group >> j & 1) && t.wsite != lead.wsite) {
          warp_diag(b, lead,
                    "Lanes of one warp meet at different warp operations or with different masks: lane " +
                        std::to_string(l) + " at line " + std::to_string(lead.wline) + " with mask " + mask_hex(lead.wmask) +
                        ", lane " + std::to_string(j) + " at line " + std::to_string(t.wline) + " with mask " +
                        mask_hex(t.wmask) + " (block " + tid_str(b.bid) + ").",
                    "{\"other_line\": " + std::to_string(t.wline) + ", \"other_thread\": " + ids_json(t.tid) +
                        ", \"mask\": \"" + mask_hex(lead.wmask) + "\", \"other_mask\": \"" + mask_hex(t.wmask) + "\"}",
                    "mismatch:" + std::to_string(lead.wline) + ":" + std::to_string(t.wline), "RUNTIME_WARP_MISMATCH",
                    JsonObject()
                        .add("lane", l)
                        .add("line", lead.wline)
                        .add("mask", mask_hex(lead.wmask))
                        .add("other_lane", j)
                        .add("other_line", t.wline)
                        .add("other_mask", mask_hex(t.wmask))
                        .add("block", tid_str(b.bid)));
          break;
        }
      }
      unsigned ballot = 0;
      for (int j = 0; j < lanes; ++j)
        if ((group >> j & 1) && b.threads[w0 + j].wvalue) ballot |= 1u << j;
      for (int j = 0; j < lanes; ++j) {
        if (!(group >> j & 1)) continue;
        Thread& t = b.threads[w0 + j];
        int width = t.wwidth;
        if (width <= 0 || width > 32 || (width & (width - 1))) width = 32;
        int seg = j & ~(width - 1);
        int src = j;
        switch (t.wop) {
          case detail::kShflIdx: src = seg + (t.warg & (width - 1)); break;
          case detail::kShflUp: src = (j - seg) >= t.warg ? j - t.warg : j; break;
          case detail::kShflDown: src = (j - seg) + t.warg < width ? j + t.warg : j; break;
          case detail::kShflXor: src = j ^ t.warg; if (src < seg || src >= seg + width) src = j; break;
          default: break;
        }
        if (t.wop >= detail::kShflIdx && t.wop <= detail::kShflXor && src >= 0 && src < 32 && (exited >> src & 1))
          reads_exited = true;
        switch (t.wop) {
          case detail::kBallot: t.wresult = ballot; break;
          case detail::kAny: t.wresult = ballot != 0; break;
          case detail::kAll: t.wresult = ballot == group; break;
          case detail::kSyncWarp: t.wresult = 0; break;
          default:
            // A source lane that does not exist or did not take part reads 0 (as measured on H200).
            t.wresult = (src >= 0 && src < 32 && (group >> src & 1)) ? b.threads[w0 + src].wvalue : 0;
        }
      }
      if (reads_exited) {
        warp_diag(b, lead,
                  "Warp operation on " + where + " names lanes in its mask " + mask_hex(lead.wmask) +
                      " that exited without reaching it (exited lanes " + mask_hex(exited) +
                      "). On a GPU this is undefined and may hang.",
                  "{\"mask\": \"" + mask_hex(lead.wmask) + "\", \"exited_lanes\": \"" + mask_hex(exited) + "\"}",
                  "exited:" + std::to_string(lead.wline), "RUNTIME_WARP_EXITED",
                  JsonObject()
                      .add("line", lead.wline)
                      .add("block", tid_str(b.bid))
                      .add("warp", static_cast<long long>(w0 / 32))
                      .add("mask", mask_hex(lead.wmask))
                      .add("exited", mask_hex(exited)));
      }
      for (int j = 0; j < lanes; ++j)
        if (group >> j & 1) b.threads[w0 + j].state = kRunnable;
      b.at_warp -= __builtin_popcount(group);
      b.events++;
      released = true;
    }
  }
  return released;
}

}  // namespace rt

namespace detail {

unsigned long long warp_op(int site, int line, int op, unsigned mask, unsigned long long value, int arg, int width) {
  using namespace rt;
  if (!g_job.fibers) rerun_with_fibers();
  Thread* me = t_thread;
  me->state = kAtWarp;
  me->wsite = site;
  me->wline = line;
  me->wop = op;
  me->wmask = mask;
  me->wvalue = value;
  me->warg = arg;
  me->wwidth = width;
  wait_for_release(t_block->at_warp, &t_block->warp_sync[me->linear / 32 % 32]);
  return me->wresult;
}

unsigned lane_id() {
  auto& c = t_ctx;
  return ((c.thread_idx.z * c.block_dim.y + c.thread_idx.y) * c.block_dim.x + c.thread_idx.x) % 32;
}

unsigned active_mask() {
  // Lanes of the caller's warp that have not exited (no lock-step here: see docs/emulator.md).
  using namespace rt;
  if (!g_job.fibers || !t_block) return 0xffffffffu;
  int w0 = t_thread->linear / 32 * 32;
  int n = static_cast<int>(t_block->threads.size());
  unsigned m = 0;
  for (int j = 0; j < 32 && w0 + j < n; ++j)
    if (t_block->threads[w0 + j].state != kExited) m |= 1u << j;
  return m;
}

}  // namespace detail
}  // namespace wd
