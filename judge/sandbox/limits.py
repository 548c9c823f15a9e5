"""Resource limits for one sandboxed submission run."""
from __future__ import annotations

from dataclasses import asdict, dataclass

DISABLE_ENV = "JUDGE_SANDBOX_DISABLE"  # comma-separated isolation layers to switch off (tests, debugging)


@dataclass(frozen=True)
class Limits:
    time_s: float = 2.0            # wall clock per test call
    import_time_s: float = 10.0    # wall clock to load the submission file
    memory_mb: int = 1024          # address space the submission may add to the warm process
    output_bytes: int = 1 << 20    # stdout + stderr together
    result_bytes: int = 64 << 20   # one encoded result
    results_total_bytes: int = 256 << 20  # all results of a submission together, as the judge holds them
    file_bytes: int = 16 << 20     # largest file it may write in its scratch directory
    scratch_mb: int = 64           # all files together (a tmpfs of this size, where mounts are possible)
    scratch_files: int = 4096      # files and directories in it together (the tmpfs's inodes)
    tasks: int = 64                # processes and threads of the run together (a pids cgroup or RLIMIT_NPROC)
    open_files: int = 64
    threads: int = 2               # torch / BLAS threads inside the child
    total_time_s: float | None = None  # budget for restarting after kills; default max(10 s, 5 x time_s)

    @property
    def budget_s(self) -> float:
        return self.total_time_s if self.total_time_s is not None else max(10.0, 5 * self.time_s)

    def to_plain(self) -> dict:
        return asdict(self)

    @classmethod
    def from_plain(cls, plain: dict) -> "Limits":
        return cls(**{k: plain[k] for k in cls.__dataclass_fields__ if k in plain})
