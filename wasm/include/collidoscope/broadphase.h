// collidoscope — the broad phase: which of many bodies' axis-aligned boxes
// overlap, so that the narrow phase (gjk.h, epa.h, contact.h …) runs only on
// those pairs. Two structures with the same contract for pairs():
//
//   SweepAndPrune (sweep_and_prune.h)  sorted intervals along one axis, kept
//                                      sorted by insertion sort between frames
//                                      (the seed's method, temporal coherence);
//   AabbTree      (aabb_tree.h)        a dynamic bounding-volume hierarchy of
//                                      fat boxes; also answers box queries and
//                                      ray casts over the world.
//
// Shared conventions (the World checks its input before it calls them):
// - Ids are small dense integers chosen by the caller, 0 ≤ id < kMaxBroadphaseId;
//   storage grows to the largest id inserted. An id out of range, inserting an
//   id twice, updating or removing an absent id is refused: the call returns
//   false and changes nothing (never silent corruption).
// - Boxes are finite with min ≤ max (closed: touching boxes overlap). NaN
//   boxes are refused by the World before they get here; with one, every loop
//   still ends (each has a bound) but the pairs are unspecified.
// - pairs() lists every pair {a, b}, a < b, whose boxes overlap, sorted by
//   (a, b), without duplicates.
// - Deterministic: the same sequence of calls gives the same pairs in the same
//   order, and the same query/raycast visiting order.
#pragma once

#include "collidoscope/aabb.h"
#include "collidoscope/aabb_tree.h"
#include "collidoscope/broadphase_ids.h"
#include "collidoscope/sweep_and_prune.h"
