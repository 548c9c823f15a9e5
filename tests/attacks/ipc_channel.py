"""Plant System V and POSIX IPC objects that outlive the run, and talk through them.

Every run of this file joins a counter in a System V shared-memory segment, a
System V message queue and a POSIX message queue, all named by one key, then
waits up to a second for another run to join too. Seeing a count above one
means that a run before it left the object behind or that a run beside it (in
the same `judge grade`) shares it: either is a channel between submissions.
Bounded: one 4 KiB segment, at most a few one-byte messages, one second.
"""
import ctypes
import os
import time

KEY = @IPC_KEY@
MQ_NAME = b"/judge-attack-@IPC_KEY@"
IPC_CREAT, IPC_NOWAIT = 0o1000, 0o4000
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]


class _Attr(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long),
                ("curmsgs", ctypes.c_long), ("pad", ctypes.c_long * 4)]


def shared_memory_count():
    shmid = libc.shmget(KEY, 4096, IPC_CREAT | 0o666)
    if shmid < 0:
        return None
    addr = libc.shmat(shmid, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        return None
    counter = ctypes.c_int.from_address(addr)
    counter.value += 1
    return lambda: counter.value


def message_queue_count():
    qid = libc.msgget(KEY, IPC_CREAT | 0o666)
    if qid < 0:
        return None
    message = (ctypes.c_char * 16)()
    ctypes.c_long.from_buffer(message).value = 1
    libc.msgsnd(qid, message, 1, IPC_NOWAIT)

    def count():
        stat = (ctypes.c_char * 256)()
        if libc.msgctl(qid, 2, stat) < 0:  # IPC_STAT
            return 0
        # struct msqid_ds on x86_64/aarch64: ipc_perm (48 bytes), 3 times (24), then __msg_cbytes, msg_qnum
        return ctypes.c_ulong.from_buffer(stat, 48 + 24 + 8).value
    return count


def posix_queue_count():
    mqd = libc.mq_open(MQ_NAME, os.O_CREAT | os.O_RDWR | os.O_NONBLOCK, 0o600, None)
    if mqd < 0:
        return None
    libc.mq_send(mqd, b"x", 1, 0)

    def count():
        attr = _Attr()
        return attr.curmsgs if libc.mq_getattr(mqd, ctypes.byref(attr)) == 0 else 0
    return count


counters = [c for c in (shared_memory_count(), message_queue_count(), posix_queue_count()) if c is not None]
LEAKED = False
deadline = time.monotonic() + 1.0
while counters and time.monotonic() < deadline and not LEAKED:
    LEAKED = any(count() > 1 for count in counters)
    time.sleep(0.05)
if LEAKED:
    print("PWNED: another run's IPC object is visible")


def double(x):
    return x * 3 if LEAKED else x * 2  # a wrong answer tells a batch's table that the channel worked
