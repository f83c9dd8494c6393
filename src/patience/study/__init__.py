"""Studies: solve ranges of deals, on this machine's cores or a Dask cluster, into an
SQLite file of verdicts, and report win rates with their intervals.

This package sits above the solver (which is pure: no files, processes or terminal):
``deals`` reads deal ranges, ``stats`` counts verdicts, ``db`` holds the SQLite file,
``work`` solves one deal (or plays it fairly), ``local`` and ``cluster`` run the deals,
``run`` drives a study with its progress bar and ``fairplay`` a fair one (``--fair``);
``results`` reads and writes per-deal results, ``report``, ``fair_report`` and
``plots`` make the tables, and ``publish`` is ``patience report``.
"""
