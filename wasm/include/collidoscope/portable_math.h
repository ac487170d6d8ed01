// collidoscope — the elementary functions the library needs (sin, cos, acos,
// log2, hypot), computed from IEEE-754 additions, multiplications,
// divisions and square roots only, so that they give the same bits in every
// build.
//
// Why: a scene must give the same bits natively and in wasm, so that a link
// replays the exact steps (the convention in DESIGN.md). The basic
// operations and std::sqrt are correctly rounded everywhere, but std::sin,
// std::hypot, std::acos and std::log2 come from the C library, and glibc
// (native builds) and musl (Emscripten) round some arguments differently in
// the last bit (tests/js/native-wasm.test.ts compares the two builds).
//
// Accuracy: within a few units in the last place of the true value on the
// arguments the library passes (tests/cpp/test_portable_math.cpp measures
// it against the C library). sin and cos reduce the argument by π/2 in three
// parts (Cody and Waite), exact up to |x| ≈ 8e5; beyond that the argument is
// first taken modulo 2π's double (exact, but that double is 2π to 2.4e-16,
// so the phase drifts by that much per turn): still the same bits
// everywhere, which is what matters for an angle that large.
// The compiler must not contract a·b + c into a fused multiply-add
// (CMakeLists.txt builds with -ffp-contract=off; wasm has no fused form).
#pragma once

namespace collidoscope {
namespace portable {

double sin(double x);
double cos(double x);
// acos on [−1, 1] (NaN outside), in [0, π].
double acos(double x);
// log2 of x > 0 (−∞ at 0, NaN below); exact at powers of two.
double log2(double x);
// √(x² + y²) without overflow or underflow in between; +∞ if either is
// infinite (even with a NaN), else NaN if either is NaN.
double hypot(double x, double y);

}  // namespace portable
}  // namespace collidoscope
