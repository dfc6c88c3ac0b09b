/**
 * @file register/register_types.h
 * GE's framework and implementation kinds for parser-plugin registration (GE
 * `register/register_types.h`; the enum values are GE's). OpenATC reads ONNX models only
 * (domi::ONNX); registrations for the other frameworks are accepted and never consulted.
 */
#ifndef OPENATC_REGISTER_REGISTER_TYPES_H_
#define OPENATC_REGISTER_REGISTER_TYPES_H_

#include <cstdint>

namespace domi {
enum FrameworkType { CAFFE = 0, MINDSPORE = 1, TENSORFLOW = 3, ANDROID_NN = 4, ONNX = 5, FRAMEWORK_RESERVED = 6 };

/// How GE implements the op; OpenATC records it and compiles every mapped op through the
/// deliverable that registers its type.
enum class ImplyType : unsigned int { BUILDIN = 0, TVM, CUSTOM, AI_CPU, INVALID = 0xFFFFFFFF };
}  // namespace domi

#endif  // OPENATC_REGISTER_REGISTER_TYPES_H_
