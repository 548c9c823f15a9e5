"""Fill the disk through the scratch directory: 8 MiB files (under the file-size limit), at most 640 MiB."""

BLOCK = b"\0" * (8 << 20)


def double(x):
    for i in range(80):
        with open(f"fill_{i}.bin", "wb") as f:
            f.write(BLOCK)
    print("PWNED wrote 640 MiB")
    return x * 2
