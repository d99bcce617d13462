/* apps/isosurface/core: the names of enumerated values (command line and
 * output), one table per enumeration: a Named table, where a value may
 * have several names (the first one is the value's own), or, for an
 * enumeration numbered 0, 1, ..., the list of its values' names in that
 * order. No VTK here. */
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

/* The value named n in names, the names of the values 0, 1, ... of E in
 * their order: 0 and *out set, or -EINVAL (unknown name). */
template <class E, size_t N>
int parse_listed(const char *const (&names)[N], const std::string &n, E *out) {
  for (size_t i = 0; i < N; i++)
    if (n == names[i]) {
      *out = static_cast<E>(i);
      return 0;
    }
  return -EINVAL;
}

/* The name of v in names (as parse_listed's), or "?". */
template <class E, size_t N>
const char *listed_name(const char *const (&names)[N], E v) {
  size_t i = static_cast<size_t>(v);
  return i < N ? names[i] : "?";
}

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_NAMES_H */
