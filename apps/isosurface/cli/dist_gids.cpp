/* apps/isosurface/cli: the distributed run's global vertex numbering (see
 * dist_internal.h and docs/distributed.md, "Global figures"). Only the main
 * thread calls MPI. */
#include "dist_internal.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

namespace iso {
namespace dist {

namespace {

bool operator<(const VertexKey &a, const VertexKey &b) {
  return a.k[0] != b.k[0] ? a.k[0] < b.k[0] : a.k[1] != b.k[1] ? a.k[1] < b.k[1] : a.k[2] < b.k[2];
}
bool operator!=(const VertexKey &a, const VertexKey &b) {
  return a.k[0] != b.k[0] || a.k[1] != b.k[1] || a.k[2] != b.k[2];
}

/* The rank that numbers key k. */
int owner_of(const VertexKey &k, int size) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t x : k.k) {
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
  }
  return (int)((h ^ (h >> 33)) % (uint64_t)size);
}

/* Vertex v's key: the global ids of its edge's ends, smaller first (twice
 * the point's for a vertex on a mesh point), or its coordinates' bits. */
VertexKey key_of(const Surface &s, const int64_t *gids, size_t v) {
  VertexKey k{{0, 0, 0}};
  if (gids) {
    const uint64_t packed = s.keys[v];
    const int64_t a = gids[packed >> 32], b = gids[packed & 0xffffffffu];
    k.k[0] = (uint64_t)std::min(a, b);
    k.k[1] = (uint64_t)std::max(a, b);
  } else {
    std::memcpy(k.k, &s.xyz[3 * v], sizeof k.k);
  }
  return k;
}

/* 0 on every rank if no rank's count exceeds limit, else -EOVERFLOW on
 * every rank. Collective. */
int counts_fit(const std::vector<int64_t> &counts, int64_t limit) {
  int over = 0;
  for (int64_t c : counts) over |= c > limit;
  MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return over ? -EOVERFLOW : 0;
}

} // namespace

int vertex_keys_by_owner(const World &w, const int64_t *gids, Surface *s,
                         std::vector<VertexKey> *send, std::vector<int> *scount, std::string *err) {
  const size_t nv = s->nverts();
  std::vector<int64_t> count((size_t)w.size, 0);
  for (size_t v = 0; v < nv; v++) count[(size_t)owner_of(key_of(*s, gids, v), w.size)]++;
  for (int64_t c : count)
    if (c > INT_MAX / 3) {
      *err = "global vertex numbering: more than 2^31/3 vertices between two ranks (MPI counts)";
      return -EOVERFLOW;
    }
  std::vector<size_t> at((size_t)w.size, 0);
  for (int r = 1; r < w.size; r++) at[(size_t)r] = at[(size_t)r - 1] + (size_t)count[(size_t)r - 1];
  send->assign(nv, VertexKey{{0, 0, 0}});
  for (size_t v = 0; v < nv; v++) {
    const VertexKey k = key_of(*s, gids, v);
    const size_t pos = at[(size_t)owner_of(k, w.size)]++;
    (*send)[pos] = k;
    s->keys[v] = pos;
  }
  scount->assign(count.begin(), count.end());
  return 0;
}

int number_vertices(const World &w, std::vector<VertexKey> *send, std::vector<int> *scount,
                    Surface *s, uint64_t *total, std::string *err) {
  const size_t R = (size_t)w.size;
  std::vector<int> rcount(R), sdispl(R, 0), rdispl(R, 0);
  MPI_Alltoall(scount->data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int64_t> sums(2, 0); /* what this rank receives, what it sends */
  for (size_t r = 0; r < R; r++) {
    sums[0] += rcount[r];
    sums[1] += (*scount)[r];
  }
  if (counts_fit(sums, INT_MAX / 3)) {
    *err = "global vertex numbering: more than 2^31/3 vertices to or from one rank (MPI counts)";
    return -EOVERFLOW;
  }
  for (size_t r = 1; r < R; r++) {
    sdispl[r] = sdispl[r - 1] + (*scount)[r - 1];
    rdispl[r] = rdispl[r - 1] + rcount[r - 1];
  }
  const size_t nrecv = (size_t)sums[0];
  /* The keys, three words each. */
  std::vector<VertexKey> recv(nrecv);
  {
    std::vector<int> sc3(R), sd3(R), rc3(R), rd3(R);
    for (size_t r = 0; r < R; r++) {
      sc3[r] = 3 * (*scount)[r];
      sd3[r] = 3 * sdispl[r];
      rc3[r] = 3 * rcount[r];
      rd3[r] = 3 * rdispl[r];
    }
    MPI_Alltoallv(send->data(), sc3.data(), sd3.data(), MPI_UINT64_T, recv.data(), rc3.data(),
                  rd3.data(), MPI_UINT64_T, MPI_COMM_WORLD);
  }
  std::vector<VertexKey>().swap(*send);
  /* The owner numbers its distinct keys in their order, after the lower
   * ranks' (MPI_Exscan of the counts). */
  std::vector<uint32_t> order(nrecv);
  for (size_t i = 0; i < nrecv; i++) order[i] = (uint32_t)i;
  std::sort(order.begin(), order.end(),
            [&recv](uint32_t a, uint32_t b) { return recv[a] < recv[b]; });
  unsigned long long distinct = 0, first = 0, sum = 0;
  for (size_t i = 0; i < nrecv; i++) distinct += i == 0 || recv[order[i]] != recv[order[i - 1]];
  MPI_Exscan(&distinct, &first, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (w.rank == 0) first = 0; /* MPI_Exscan leaves rank 0's undefined */
  MPI_Allreduce(&distinct, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  std::vector<uint64_t> answer(nrecv);
  uint64_t id = first;
  for (size_t i = 0; i < nrecv; i++) {
    if (i > 0 && recv[order[i]] != recv[order[i - 1]]) id++;
    answer[order[i]] = id;
  }
  std::vector<VertexKey>().swap(recv);
  std::vector<uint32_t>().swap(order);
  /* The answers back, in the order each rank sent its keys. */
  std::vector<uint64_t> back(s->nverts());
  MPI_Alltoallv(answer.data(), rcount.data(), rdispl.data(), MPI_UINT64_T, back.data(),
                scount->data(), sdispl.data(), MPI_UINT64_T, MPI_COMM_WORLD);
  for (uint64_t &k : s->keys) k = back[k];
  *total = sum;
  return 0;
}

} // namespace dist
} // namespace iso
