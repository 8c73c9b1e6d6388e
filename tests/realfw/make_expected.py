#!/usr/bin/env python3
# make_expected: independent (python lzma/hashlib, not openflint) MFA v1 reader that writes expected.tsv.
"""Usage: make_expected.py REAL_FIRMWARE_DIR > expected.tsv

For every *.mfa: parses header, sections, MAP and TOC (formats.md "MFA v1 archive"),
decodes DATA in one streaming pass and hashes the firmware image (image_type 1, empty
select tag) of the first and the last board in MAP order. Board counts and unpacked DATA
sizes are cross-checked against the table in REAL_FIRMWARE_DIR/README.md.
"""
import glob
import hashlib
import lzma
import os
import re
import struct
import sys
import zlib


def sections(blob):
    assert blob[:4] == b"MFAR" and struct.unpack(">I", blob[4:8])[0] == 1
    assert zlib.crc32(blob[:-4]) == struct.unpack(">I", blob[-4:])[0], "bad CRC32"
    out, off = {}, 16
    while off < len(blob) - 4:
        kind, _, _, flags, size = struct.unpack(">BBBBI", blob[off:off + 8])
        payload = blob[off + 8:off + 8 + size]
        out[kind] = (flags, payload)
        off += 8 + size
    return out


def unpack(section, whole=True):
    flags, payload = section
    return lzma.decompress(payload) if (flags & 1) and whole else payload


def boards(map_bytes, toc):
    out, pos = [], 0
    while pos < len(map_bytes):
        psid = map_bytes[pos:pos + 32].split(b"\0")[0].decode()
        nimages, _, md_size = struct.unpack(">BBH", map_bytes[pos + 32:pos + 36])
        pos += 36 + md_size
        firmware = None
        for _ in range(nimages):
            toc_off, image_type = struct.unpack(">IH", map_bytes[pos:pos + 6])
            tag = map_bytes[pos + 8:pos + 40].split(b"\0")[0]
            pos += 40
            if image_type == 1 and not tag and firmware is None:
                lsb, size = struct.unpack(">II", toc[toc_off:toc_off + 8])
                msb = struct.unpack(">H", toc[toc_off + 20:toc_off + 22])[0]
                firmware = ((msb << 32) | lsb, size)
        out.append((psid, firmware))
    return out


def hash_ranges(data_section, ranges):
    """One pass over DATA; returns (sha256 per range, total unpacked size)."""
    hashes = [hashlib.sha256() for _ in ranges]
    decoder = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    payload, pos, fed = data_section[1], 0, 0
    while not decoder.eof:
        chunk = decoder.decompress(payload[fed:fed + (1 << 16)] if decoder.needs_input else b"",
                                   max_length=1 << 20)
        if decoder.needs_input:
            fed += 1 << 16
        for h, (begin, size) in zip(hashes, ranges):
            lo, hi = max(begin, pos), min(begin + size, pos + len(chunk))
            if lo < hi:
                h.update(chunk[lo - pos:hi - pos])
        pos += len(chunk)
    return [h.hexdigest() for h in hashes], pos


def readme_table(directory):
    table = {}
    with open(os.path.join(directory, "README.md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\|\s*(\S+\.mfa)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|", line)
            if m:
                table[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return table


def main():
    directory = sys.argv[1]
    table = readme_table(directory)
    print("# archive\tboards\tdata_unpacked_bytes\tfirst_psid\tfirst_sha256\tlast_psid\tlast_sha256")
    for path in sorted(glob.glob(os.path.join(directory, "*.mfa"))):
        name = os.path.basename(path)
        with open(path, "rb") as f:
            secs = sections(f.read())
        board_list = boards(unpack(secs[1]), unpack(secs[2]))
        first, last = board_list[0], board_list[-1]
        (sha_first, sha_last), unpacked = hash_ranges(secs[3], [first[1], last[1]])
        assert table[name] == (unpacked, len(board_list)), (name, table[name], unpacked, len(board_list))
        print("\t".join([name, str(len(board_list)), str(unpacked), first[0], sha_first,
                         last[0], sha_last]))


if __name__ == "__main__":
    main()
