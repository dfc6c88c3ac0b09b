"""ge.ge_global: process-wide GE initialisation (GeApi) over libge_runner.so."""
from .._capi import native as _native


def _options(config, what):
    if config is None:
        return {}
    if not isinstance(config, dict):
        raise TypeError("{} takes a dict of options, got {}".format(what, type(config).__name__))
    return {str(k): str(v) for k, v in config.items()}


class GeApi:
    def ge_initialize(self, config=None):
        """GEInitialize(config); returns 0, raises RuntimeError with GE's message on failure."""
        _native().ge_initialize(_options(config, "ge_initialize"))
        return 0

    def ge_finalize(self):
        _native().ge_finalize()
        return 0


__all__ = ["GeApi"]
