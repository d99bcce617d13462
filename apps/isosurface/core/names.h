/* apps/isosurface/core: the names of enumerated values (command line and
 * output), one table per enumeration: a value may have several names, the
 * first one is the value's own. No VTK here. */
#ifndef APPS_ISOSURFACE_CORE_NAMES_H
#define APPS_ISOSURFACE_CORE_NAMES_H

#include <cerrno>
#include <cstddef>
#include <string>

namespace iso {

template <class E>
struct Named {
  const char *name;
  E value;
};

/* The value named n in table: 0 and *out set, or -EINVAL (unknown name). */
template <class E, size_t N>
int parse_named(const Named<E> (&table)[N], const std::string &n, E *out) {
  for (const Named<E> &e : table)
    if (n == e.name) {
      *out = e.value;
      return 0;
    }
  return -EINVAL;
}

/* The (first) name of v in table, or "?". */
template <class E, size_t N>
const char *name_of(const Named<E> (&table)[N], E v) {
  for (const Named<E> &e : table)
    if (e.value == v) return e.name;
  return "?";
}

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_NAMES_H */
