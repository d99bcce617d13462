/* apps/isosurface/core: the names of the core's enumerated values (names.h):
 * the mesh's cell orders, splits and fields (mesh.h), the extraction's
 * modes (mt.h), the renumberings (reorder.h). */
#include "names.h"

#include "mesh.h"
#include "mt.h"
#include "reorder.h"

namespace iso {

namespace {

/* The names of each enumeration's values, in the order of its values (the
 * enumerations number them 0, 1, ...): the generated meshes' (mesh.h), the
 * extraction's (mt.h), the renumberings (reorder.h). */
const char *const order_names[] = {"lex", "morton", "hilbert", "random"};
const char *const split_names[] = {"5", "6"};
const char *const field_names[] = {"sphere", "waves", "flat", "gyroid"};
const char *const mode_names[] = {"seq", "nowin", "static", "sliding"};
const char *const reorder_names[] = {"none", "morton", "hilbert", "auto"};
const char *const point_order_names[] = {"keep", "first-use", "random"};

/* One name per value: a value added to an enumeration without its name
 * (or a name without its value) stops the build. The order is checked by
 * test_reorder (every value's name). */
template <class E, size_t N>
constexpr bool names_all(const char *const (&)[N], E last) {
  return N == static_cast<size_t>(last) + 1;
}
static_assert(names_all(order_names, Order::Random), "order_names");
static_assert(names_all(split_names, Split::Six), "split_names");
static_assert(names_all(field_names, Field::Gyroid), "field_names");
static_assert(names_all(mode_names, Mode::Sliding), "mode_names");
static_assert(names_all(reorder_names, Reorder::Auto), "reorder_names");
static_assert(names_all(point_order_names, PointOrder::Random), "point_order_names");

} // namespace

/* "lexicographic": lex's other name. */
int parse_order(const std::string &n, Order *out) {
  return parse_listed(order_names, n == "lexicographic" ? std::string("lex") : n, out);
}
int parse_split(const std::string &n, Split *out) { return parse_listed(split_names, n, out); }
int parse_field(const std::string &n, Field *out) { return parse_listed(field_names, n, out); }
int parse_mode(const std::string &n, Mode *out) { return parse_listed(mode_names, n, out); }
int parse_reorder(const std::string &n, Reorder *out) {
  return parse_listed(reorder_names, n, out);
}
int parse_point_order(const std::string &n, PointOrder *out) {
  return parse_listed(point_order_names, n, out);
}

const char *order_name(Order o) { return listed_name(order_names, o); }
const char *split_name(Split s) { return listed_name(split_names, s); }
const char *field_name(Field f) { return listed_name(field_names, f); }
const char *mode_name(Mode m) { return listed_name(mode_names, m); }
const char *reorder_name(Reorder r) { return listed_name(reorder_names, r); }
const char *point_order_name(PointOrder p) { return listed_name(point_order_names, p); }

} // namespace iso
