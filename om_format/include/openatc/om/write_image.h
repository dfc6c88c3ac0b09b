/**
 * @file openatc/om/write_image.h
 * Writing an OM image that was serialised earlier (openatc/om/model.h Serialize), with its
 * external weight files: what GE's aclgrphSaveModel does with the buffer aclgrphBuildModel made.
 */
#ifndef OPENATC_OM_WRITE_IMAGE_H_
#define OPENATC_OM_WRITE_IMAGE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "openatc/om/model.h"

namespace openatc::om {

/// Writes `size` bytes of an OM image at `image` to `path` with the weight files Serialize gave
/// for it, exactly as WriteFile writes a model (the weight files first, staged and renamed into
/// `<dir of path>/weight/`, then the image atomically; on failure nothing this call created is
/// left). Throws openatc::Error (kIo) naming the path.
void WriteImage(const std::string &path, const uint8_t *image, size_t size, const std::vector<WeightFile> &weight_files);

}  // namespace openatc::om

#endif  // OPENATC_OM_WRITE_IMAGE_H_
