/* apps/isosurface/core: the names of the core's enumerated values (names.h):
 * the mesh's cell orders, splits and fields (mesh.h), the extraction's
 * modes (mt.h), the renumberings (reorder.h). */
#include "names.h"

#include "mesh.h"
#include "mt.h"
#include "reorder.h"

namespace iso {

namespace {

/* The generated meshes (mesh.h). */
const Named<Order> order_names[] = {{"lex", Order::Lex},
                                    {"lexicographic", Order::Lex},
                                    {"morton", Order::Morton},
                                    {"hilbert", Order::Hilbert},
                                    {"random", Order::Random}};
const Named<Split> split_names[] = {{"5", Split::Five}, {"6", Split::Six}};
const Named<Field> field_names[] = {{"sphere", Field::Sphere},
                                    {"waves", Field::Waves},
                                    {"flat", Field::Flat},
                                    {"gyroid", Field::Gyroid}};

/* The extraction (mt.h). */
const Named<Mode> mode_names[] = {{"seq", Mode::Seq},
                                  {"nowin", Mode::NoWin},
                                  {"static", Mode::Static},
                                  {"sliding", Mode::Sliding}};

/* The renumberings (reorder.h). */
const Named<Reorder> reorder_names[] = {{"none", Reorder::None},
                                        {"morton", Reorder::Morton},
                                        {"hilbert", Reorder::Hilbert},
                                        {"auto", Reorder::Auto}};
const Named<PointOrder> point_order_names[] = {{"keep", PointOrder::Keep},
                                               {"first-use", PointOrder::FirstUse},
                                               {"random", PointOrder::Random}};

} // namespace

int parse_order(const std::string &n, Order *out) { return parse_named(order_names, n, out); }
int parse_split(const std::string &n, Split *out) { return parse_named(split_names, n, out); }
int parse_field(const std::string &n, Field *out) { return parse_named(field_names, n, out); }
int parse_mode(const std::string &n, Mode *out) { return parse_named(mode_names, n, out); }
int parse_reorder(const std::string &n, Reorder *out) { return parse_named(reorder_names, n, out); }
int parse_point_order(const std::string &n, PointOrder *out) {
  return parse_named(point_order_names, n, out);
}

const char *order_name(Order o) { return name_of(order_names, o); }
const char *split_name(Split s) { return name_of(split_names, s); }
const char *field_name(Field f) { return name_of(field_names, f); }
const char *mode_name(Mode m) { return name_of(mode_names, m); }
const char *reorder_name(Reorder r) { return name_of(reorder_names, r); }
const char *point_order_name(PointOrder p) { return name_of(point_order_names, p); }

} // namespace iso
