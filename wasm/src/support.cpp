// collidoscope — support mappings under a pose (see support.h).
#include "collidoscope/support.h"

namespace collidoscope {

Vec3 fullSupport(const Shape& s, const Vec3& worldDir) {
  const Vec3 core = PosedShape(s).support(worldDir);
  const double r = coreRadius(s);
  if (r == 0) return core;
  return core + normalizedOr(worldDir, Vec3{1, 0, 0}) * r;
}

}  // namespace collidoscope
