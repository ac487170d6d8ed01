// collidoscope — what the broad-phase structures (broadphase.h) share: the
// range of body ids and the pair they report.
#pragma once

namespace collidoscope {

// Ids are below 2^20: a World of a million bodies, and an id fits the 20 bits
// a pair key packs twice into 40 (see SweepAndPrune::pairs).
constexpr int kMaxBroadphaseId = 1 << 20;

// Two bodies whose boxes overlap, a < b.
struct IdPair {
  int a = 0, b = 0;
  bool operator==(const IdPair& o) const { return a == o.a && b == o.b; }
  bool operator!=(const IdPair& o) const { return !(*this == o); }
  bool operator<(const IdPair& o) const { return a < o.a || (a == o.a && b < o.b); }
};

inline bool validBroadphaseId(int id) { return id >= 0 && id < kMaxBroadphaseId; }

}  // namespace collidoscope
