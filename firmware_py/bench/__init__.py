"""The speed figures of the commands and the table service, sections of `roseking bench`: `startup`
(a command's start), `play` (the service's latency, CPU and memory) and `cluster` (scaling on Dask)."""
