"""Mounts the ES wrapper packages installed with an entry point in group `ge.es.plugins`
(e.g. `custom = es_custom:get_module`) as ge.es.<name>, printing GE's info line per plugin."""
import importlib.metadata
import sys

GROUP = "ge.es.plugins"


def _entry_points():
    eps = importlib.metadata.entry_points()
    if hasattr(eps, "select"):
        return list(eps.select(group=GROUP))
    return list(eps.get(GROUP, []))  # Python < 3.10


def load_plugins(package):
    """Loads every plugin once; a failing plugin raises ImportError naming it."""
    seen = set()
    for ep in _entry_points():
        if ep.name in seen:
            continue
        seen.add(ep.name)
        try:
            module = ep.load()()
        except Exception as exc:  # noqa: BLE001 - re-raised with the plugin named
            raise ImportError("ES plugin '{}' ({}) failed to load: {}".format(ep.name, ep.value, exc)) from exc
        sys.modules["{}.{}".format(package.__name__, ep.name)] = module
        setattr(package, ep.name, module)
        print("[INFO] [ge.es._plugin_loader] ES plugin '{}' loaded: {}".format(ep.name, module.__name__), flush=True)
