// liblowering.so: GE's samples link `lowering`; on the host target nothing is lowered, so the
// library only carries its version so that the link line of a GE sample works unchanged.
extern "C" __attribute__((visibility("default"))) const char *OpenAtcLoweringVersion() { return OPENATC_SDK_VERSION; }
