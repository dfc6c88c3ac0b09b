// Included from where_like.asc through the target's include folders.
#pragma once
#include <cstdint>
constexpr uint32_t kShiftBlocks = 4;
