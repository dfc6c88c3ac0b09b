// Private: aclInit's config file read and dispatched (openatc/rt/init_config.h), and the
// initialised flag; device.cc's aclInit/aclFinalize call these under their lock.
#ifndef OPENATC_RT_SRC_INIT_CONFIG_H_
#define OPENATC_RT_SRC_INIT_CONFIG_H_

namespace openatc {
namespace rt {

/** Reads `path` (not null, not empty) and applies its sections; on an error the sections
 *  applied so far are cleared and the error (ACL code) propagates. */
void ApplyInitConfig(const char *path);
/** Clears every registered section. */
void ClearInitConfig();
/** Records aclInit's success / aclFinalize. */
void SetAclInitialized(bool on);

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_INIT_CONFIG_H_
