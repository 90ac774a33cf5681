// CUDA on top of CodeMirror's C++ mode: the qualifiers, built-in variables and intrinsics that
// the C++ grammar sees as plain identifiers get their own classes, in the editor and in static
// code blocks alike.

export const CUDA_KEYWORDS = [
  "__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
  "__restrict__", "__forceinline__", "__noinline__", "__launch_bounds__", "__grid_constant__",
];

export const CUDA_BUILTINS = [
  "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
  "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp",
  "__threadfence", "__threadfence_block", "__threadfence_system",
  "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
  "__ballot_sync", "__any_sync", "__all_sync", "__activemask", "__match_any_sync", "__match_all_sync",
  "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
  "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
  "atomicCAS", "atomicAnd", "atomicOr", "atomicXor",
  "__ldg", "__popc", "__clz", "__ffs", "__fmaf_rn", "__expf", "__logf", "__sinf", "__cosf", "__fdividef",
  "dim3", "cudaError_t", "cooperative_groups",
];

const escape = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const KEYWORD_SET = new Set(CUDA_KEYWORDS);
const BUILTIN_SET = new Set(CUDA_BUILTINS);

export const CUDA_WORD_RE = new RegExp(
  "\\b(" + [...CUDA_KEYWORDS, ...CUDA_BUILTINS].map(escape).join("|") + ")\\b", "g");

/** "keyword" | "builtin" | null for one identifier. */
export function cudaWordKind(word) {
  if (KEYWORD_SET.has(word)) return "keyword";
  if (BUILTIN_SET.has(word)) return "builtin";
  return null;
}
