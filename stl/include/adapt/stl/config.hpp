/* Tunables of the C++ front end <adapt/stl.hpp>: every one here, each
 * overridable with -D before including the header (all translation units of
 * a program must agree). docs/stl.md describes them. */
#ifndef ADAPT_STL_CONFIG_HPP
#define ADAPT_STL_CONFIG_HPP

/* Elements per block of reduce, transform_reduce and the scans (the last
 * block also takes the remainder, n % block). Each block's value is computed
 * by one sequential pass; block values are combined along a fixed tree
 * (reduce) or a fixed chain (scans), so the results are the same whatever
 * the number of workers, the mode and the grain. Changing it changes
 * floating-point results. At least 2. Default 4096: the per-block cost
 * (about 100 instructions: the block's call, the tree's push and merge) is
 * then under 1% of std's loop even for a cheap + on doubles (2.75
 * instructions per element); at 1024 it was 3.5% (docs/benchmarks-stl.md). */
#ifndef ADAPT_STL_BLOCK
#define ADAPT_STL_BLOCK 4096
#endif

/* reduce and transform_reduce on long sequences: their block doubles from
 * ADAPT_STL_BLOCK up to at most this many elements while n still holds
 * ADAPT_STL_REDUCE_BLOCKS_MIN blocks of the doubled size. The block still
 * depends on n only, so results stay independent of the workers.
 * Default 16384. On 1e7 doubles, one worker, the cheap rows' cost over
 * std fell from 1.8-4.2% to 0.1-0.6%, and the 2-worker speed-ups did not
 * change (measured with `make bench-stl`, docs/benchmarks-stl.md). Elements. */
#ifndef ADAPT_STL_REDUCE_BLOCK_MAX
#define ADAPT_STL_REDUCE_BLOCK_MAX 16384
#endif

/* See ADAPT_STL_REDUCE_BLOCK_MAX. A block is also the smallest piece a
 * thief can take, so there must be enough blocks to keep the workers
 * balanced on a costly element operation. In one A/B run, 16384-element
 * blocks on 1e6 elements (61 blocks) read 2-4% lower 2-worker speed-ups on
 * the costly and unbalanced rows, so 1e6 elements keep 4096. Default 512. */
#ifndef ADAPT_STL_REDUCE_BLOCKS_MIN
#define ADAPT_STL_REDUCE_BLOCKS_MIN 512
#endif

/* Scans and copy_if: the elements got from thieves are finalised (outputs
 * chained from their block prefixes, after the region; selected elements
 * copied to their place, at the merge; remove_if and unique: a stolen
 * piece's survivors moved down, in rounds no longer than the gap) by a
 * parallel map from this many elements on; fewer sequentially. Elements.
 * Default 16384. */
#ifndef ADAPT_STL_NESTED_MIN
#define ADAPT_STL_NESTED_MIN 16384
#endif

/* sort/stable_sort: ranges shorter than 2 * this (elements) or a runtime of
 * one worker sort with std::sort / std::stable_sort; otherwise the leaves of
 * stable_sort's merge sort hold at least this many elements, sort's
 * quicksort hands parts shorter than this to std::sort, and the blocks of
 * its parallel partitions hold at least this many. Default 8192. */
#ifndef ADAPT_STL_SORT_LEAF_MIN
#define ADAPT_STL_SORT_LEAF_MIN 8192
#endif

/* sort/stable_sort: at most this many leaves per worker in stable_sort
 * (more leaves balance better and cost one more merge level each
 * doubling), blocks per worker in a parallel partition of sort. Default 8. */
#ifndef ADAPT_STL_SORT_LEAVES_PER_WORKER
#define ADAPT_STL_SORT_LEAVES_PER_WORKER 8
#endif

/* sort/stable_sort: merges of fewer elements than this run sequentially
 * (std::merge); longer ones split in two at a binary-search point and run
 * both halves as spawned tasks. Elements. Default 16384. */
#ifndef ADAPT_STL_MERGE_MIN
#define ADAPT_STL_MERGE_MIN 16384
#endif

/* copy_if of trivial types of at most 16 bytes: elements staged per
 * branch-free pass (each element is stored to a stack buffer and the count
 * advances by the predicate's result, so a half-selecting predicate costs
 * no mispredicted branch), then copied out. Elements. Default 256. */
#ifndef ADAPT_STL_COPY_STAGE
#define ADAPT_STL_COPY_STAGE 256
#endif

/* copy_if and the selections to other ranges (remove_copy(_if),
 * unique_copy, partition_copy): a stolen piece marks its selected elements
 * (a bit each) in segments of at most this many consecutive input
 * elements, never moved; when the piece reaches the calling thread each
 * segment is one unit of the copy to the final place. The set operations
 * cut a stolen piece's record of steps (two bits each) in segments of at
 * least this many steps, each one unit of the replay. Elements (steps).
 * Default 8192. */
#ifndef ADAPT_STL_COPY_SEGMENT
#define ADAPT_STL_COPY_SEGMENT 8192
#endif

/* copy and move of a trivially copyable type between contiguous ranges
 * (pointers, std::vector's iterators; as C++20, every
 * std::contiguous_iterator) of at least this many bytes, under
 * the window mode none or default_ (whatever ADAPT_WINDOW says; a policy's
 * static or sliding window keeps ordinary stores): each chunk is written
 * with non-temporal (streaming) stores, as glibc's memmove writes one call
 * of that size: the output does not pass through the caches and is not
 * read first. 0: three
 * quarters of a worker's share of the cache its workers share
 * (adapt_shared_cache_size() / adapt_num_workers()), of the order of
 * glibc's own threshold; never when that cache is unknown. x86 with SSE2
 * only (elsewhere std::copy's chunks). Bytes. Default 0. */
#ifndef ADAPT_STL_STREAM_MIN
#define ADAPT_STL_STREAM_MIN 0
#endif

/* The selections to another range (copy_if, remove_copy(_if),
 * unique_copy, partition_copy) whose stolen pieces are placed by streaming
 * stores (ADAPT_STL_STREAM_MIN judged on the input): each segment placed
 * gathers its single elements (runs of whole lines stream directly) in a
 * buffer of this many bytes on the stack, and streams the whole cache
 * lines of ADAPT_STL_STREAM_LINE bytes it covers each time it fills. At
 * least two lines. Bytes. Default 4096. */
#ifndef ADAPT_STL_STREAM_BUFFER
#define ADAPT_STL_STREAM_BUFFER 4096
#endif

/* The cache line the streaming stores fill whole (partial lines are
 * written with ordinary stores). Bytes. Default 64. */
#ifndef ADAPT_STL_STREAM_LINE
#define ADAPT_STL_STREAM_LINE 64
#endif

/* partition's parallel blocks without a branch per element (partition.hpp,
 * detail::split_block): value types (trivially copyable) of at most this
 * many bytes; larger ones are partitioned by std::partition per block
 * (copying them twice costs more than the mispredicted branch it saves).
 * 0: never. Bytes. Default 32. */
#ifndef ADAPT_STL_PARTITION_COPY_MAX
#define ADAPT_STL_PARTITION_COPY_MAX 32
#endif

static_assert(ADAPT_STL_BLOCK >= 2, "ADAPT_STL_BLOCK must be at least 2");
static_assert(ADAPT_STL_REDUCE_BLOCK_MAX >= ADAPT_STL_BLOCK,
              "ADAPT_STL_REDUCE_BLOCK_MAX must be at least ADAPT_STL_BLOCK");
static_assert(ADAPT_STL_REDUCE_BLOCKS_MIN >= 1, "ADAPT_STL_REDUCE_BLOCKS_MIN must be at least 1");
static_assert(ADAPT_STL_NESTED_MIN >= 1, "ADAPT_STL_NESTED_MIN must be at least 1");
static_assert(ADAPT_STL_SORT_LEAF_MIN >= 2, "ADAPT_STL_SORT_LEAF_MIN must be at least 2");
static_assert(ADAPT_STL_SORT_LEAVES_PER_WORKER >= 1, "ADAPT_STL_SORT_LEAVES_PER_WORKER >= 1");
static_assert(ADAPT_STL_COPY_STAGE >= 1, "ADAPT_STL_COPY_STAGE must be at least 1");
static_assert(ADAPT_STL_COPY_SEGMENT >= 1, "ADAPT_STL_COPY_SEGMENT must be at least 1");
static_assert(ADAPT_STL_MERGE_MIN >= 4, "ADAPT_STL_MERGE_MIN must be at least 4");
static_assert(ADAPT_STL_STREAM_LINE >= 16 &&
                  (ADAPT_STL_STREAM_LINE & (ADAPT_STL_STREAM_LINE - 1)) == 0,
              "ADAPT_STL_STREAM_LINE must be a power of two, at least 16");
static_assert(ADAPT_STL_STREAM_BUFFER >= 2 * ADAPT_STL_STREAM_LINE,
              "ADAPT_STL_STREAM_BUFFER must hold two lines");

#endif /* ADAPT_STL_CONFIG_HPP */
