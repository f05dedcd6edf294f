import logging, sys
logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
class JarvisLogger:
    def __init__(self, *a, **k): self._l = logging.getLogger(k.get("service", "node"))
    def _log(self, lvl, msg, *a, **k): self._l.log(lvl, "%s %s", msg, k if k else "")
    def debug(self, m, *a, **k): self._log(logging.DEBUG, m, **k)
    def info(self, m, *a, **k): self._log(logging.INFO, m, **k)
    def warning(self, m, *a, **k): self._log(logging.WARNING, m, **k)
    warn = warning
    def error(self, m, *a, **k): self._log(logging.ERROR, m, **k)
    def exception(self, m, *a, **k): self._log(logging.ERROR, m, **k)
    def critical(self, m, *a, **k): self._log(logging.CRITICAL, m, **k)
