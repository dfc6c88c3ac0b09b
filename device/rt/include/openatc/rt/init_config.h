/**
 * @file openatc/rt/init_config.h
 * aclInit's configuration file (GE's acl.json): the device reads and parses it, then hands each
 * top-level section to the layer that acts on it. Sections are registered by code inside
 * libascendcl.so above the device (loader/mdl registers "dump", src/dump_state.cc), so the device
 * knows no section's meaning and nothing points upwards. Internal, hidden like error_state.h.
 *
 * aclInit(path): nullptr or "" = no config. A file that does not exist or cannot be read:
 * ACL_ERROR_INVALID_FILE; not JSON, or JSON that is not an object: ACL_ERROR_PARSE_FILE naming
 * the file and the parser's position; an empty file is no config (as GE). A registered section's
 * handler checks it (throwing openatc::Error with its ACL code; aclInit then fails and leaves ACL
 * uninitialized); every other top-level key gets one warning line naming it.
 */
#ifndef OPENATC_RT_INIT_CONFIG_H_
#define OPENATC_RT_INIT_CONFIG_H_

#include <string>

#include <nlohmann/json.hpp>

namespace openatc {
namespace rt {

/** Takes the value of its key from the config `file`; throws openatc::Error (ACL code) when bad. */
using InitSectionApply = void (*)(const nlohmann::json &section, const std::string &file);
/** Forgets what the section set (aclFinalize, or a later section of the same file failing). */
using InitSectionClear = void (*)();

/** Registers the handler of top-level key `key` (one per key; static initialisation is fine). */
void RegisterInitSection(const char *key, InitSectionApply apply, InitSectionClear clear);

/** Reads and parses an ACL config file (aclInit's, aclmdlSetDump's): ACL_ERROR_INVALID_FILE when
 *  it cannot be read, ACL_ERROR_PARSE_FILE when it is not a JSON object (file and position
 *  named). An empty file gives a null json (GE: no config). */
nlohmann::json ReadConfigFile(const std::string &file);

/** Whether aclInit succeeded and aclFinalize has not been called since. */
bool AclInitialized();

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_INIT_CONFIG_H_
