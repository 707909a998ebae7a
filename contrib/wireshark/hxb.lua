-- Wireshark dissector for hxb, wire protocol version 4 (doc/PROTOCOL.md;
-- C form: uct_hxb/hxb_wire.h, validation: hxb_frame_check in hxb_wire.c).
--
-- Carriers: raw Ethernet (EtherType 0x88B5); UDP rails (heuristic on every
-- UDP datagram: version 4, reserved 0, hops <= 8, length consistent; or a
-- port range given in the preferences); relayed datagrams (UDP port 885).
-- A datagram that holds several frames (a segmented train captured on its
-- sender before the NIC cut it, or coalesced by GRO on its receiver) is
-- dissected frame by frame.
--
-- Expert info says what a receiver would do with the frame, in the order of
-- hxb_frame_check (PROTOCOL.md section 7, steps 1-6): short, version, kind,
-- length (malformed: the frame is not hxb's wire format), checksum (damage
-- on the way). Step 6b (the tag) needs the job's secret and is not checked;
-- 7d (SEQ flag against the kind) is a protocol warning. A UDP datagram
-- whose UDP checksum is bad (tshark -o udp.check_checksum:TRUE) is damaged:
-- the receiving kernel drops it, and it is flagged as a bad checksum only,
-- not as malformed, whatever its damaged fields say.
--
-- Use: tshark -X lua_script:contrib/wireshark/hxb.lua -r FILE.pcapng
-- or copy it to ~/.local/lib/wireshark/plugins/ (Wireshark 3.6 and later;
-- older: ~/.config/wireshark/plugins/). Display filters: hxb, hxb.kind ==
-- 16, hxb.relayed, hxb.e.checksum, ... (see contrib/wireshark/README.md).

local VERSION  = 4
local SHORT    = 0x84  -- a short data frame's first byte (PROTOCOL.md 3.1)
local SHDR     = 20    -- its header
local short_ext = { [1] = 0, [2] = 16, [4] = 8 }  -- AM, PUT, GET_RESP
local HDR      = 44
local HOPS_MAX = 8
local RELAY_PORT = 885
local SACK_BITS = 1024

local hxb = Proto("hxb", "hxb multi-rail transport")

local kinds = {
    [1] = "AM", [2] = "PUT", [3] = "GET_REQ", [4] = "GET_RESP", [5] = "NOP",
    [6] = "ATOMIC", [16] = "ACK", [17] = "ERR", [18] = "PING", [19] = "PONG",
    [20] = "HELLO",
}
-- extension size per kind (hxb_ext_len)
local ext_len = { [1] = 8, [2] = 16, [3] = 24, [4] = 12, [5] = 0, [6] = 40,
                  [16] = 16, [17] = 8, [18] = 16, [19] = 16, [20] = 8 }
-- kinds whose len must equal the extension (hxb_frame_check)
local len_exact = { [3] = true, [5] = true, [17] = true, [18] = true,
                    [19] = true, [20] = true }
local atomic_ops = { [0] = "ADD", [1] = "AND", [2] = "OR", [3] = "XOR",
                     [4] = "SWAP", [5] = "CSWAP" }
local statuses = { [0] = "ok", [1] = "HXB_E_RKEY", [2] = "HXB_E_PEER",
                   [3] = "HXB_E_CANCEL" }
local dims = { [0] = "x", [1] = "y", [2] = "z" }

local F = hxb.fields
F.version   = ProtoField.uint8("hxb.version", "Version")
F.kind      = ProtoField.uint8("hxb.kind", "Kind", base.DEC, kinds)
F.flags     = ProtoField.uint8("hxb.flags", "Flags", base.HEX)
F.f_csum    = ProtoField.bool("hxb.flags.csum", "CSUM", 8, nil, 0x01)
F.f_seq     = ProtoField.bool("hxb.flags.seq", "SEQ", 8, nil, 0x02)
F.f_busy    = ProtoField.bool("hxb.flags.busy", "BUSY", 8, nil, 0x04)
F.f_more    = ProtoField.bool("hxb.flags.more", "MORE", 8, nil, 0x08)
F.f_first   = ProtoField.bool("hxb.flags.am_first", "AM_FIRST", 8, nil, 0x10)
F.f_last    = ProtoField.bool("hxb.flags.am_last", "AM_LAST", 8, nil, 0x20)
F.f_bundle  = ProtoField.bool("hxb.flags.bundle", "AM_BUNDLE", 8, nil, 0x40)
F.f_ordered = ProtoField.bool("hxb.flags.ordered", "ORDERED", 8, nil, 0x80)
F.hops      = ProtoField.uint8("hxb.hops", "Hop limit")
F.len       = ProtoField.uint16("hxb.len", "Length (extension + payload)")
F.rail      = ProtoField.uint8("hxb.rail", "Sender's rail")
F.reserved  = ProtoField.uint8("hxb.reserved", "Reserved", base.HEX)
F.tag       = ProtoField.uint64("hxb.tag", "Tag", base.HEX)
F.src_node  = ProtoField.uint16("hxb.src_node", "Source node")
F.src_proc  = ProtoField.uint16("hxb.src_proc", "Source process")
F.dst_node  = ProtoField.uint16("hxb.dst_node", "Destination node")
F.dst_proc  = ProtoField.uint16("hxb.dst_proc", "Destination process")
F.node      = ProtoField.uint16("hxb.node", "Node (source or destination)")
F.src_epoch = ProtoField.uint32("hxb.src_epoch", "Source epoch")
F.dst_epoch = ProtoField.uint32("hxb.dst_epoch", "Destination epoch")
F.seq       = ProtoField.uint32("hxb.seq", "Sequence")
F.ack       = ProtoField.uint32("hxb.ack", "Cumulative ack")
F.csum      = ProtoField.uint32("hxb.csum", "Checksum", base.HEX)
F.csum_calc = ProtoField.uint32("hxb.csum.computed", "Computed checksum", base.HEX)
F.csum_ok   = ProtoField.bool("hxb.csum.good", "Checksum good")
F.relayed   = ProtoField.bool("hxb.relayed", "Relayed")
F.carrier   = ProtoField.string("hxb.carrier", "Carrier")
F.train     = ProtoField.uint16("hxb.train_index", "Frame in datagram")
F.short     = ProtoField.bool("hxb.short", "Short form (PROTOCOL.md 3.1)")
-- AM
F.am_id     = ProtoField.uint8("hxb.am.id", "AM id")
F.am_pad    = ProtoField.bytes("hxb.am.pad", "Pad")
F.am_total  = ProtoField.uint32("hxb.am.total", "Message length")
F.rec       = ProtoField.bytes("hxb.bundle.record", "Record")
F.rec_am_id = ProtoField.uint8("hxb.bundle.am_id", "AM id")
F.rec_pad   = ProtoField.uint8("hxb.bundle.pad", "Pad")
F.rec_len   = ProtoField.uint16("hxb.bundle.len", "Data length")
F.rec_addr  = ProtoField.uint64("hxb.bundle.addr", "Address", base.HEX)
F.rec_rkey  = ProtoField.uint64("hxb.bundle.rkey", "Rkey", base.HEX)
F.rec_count = ProtoField.uint16("hxb.bundle.count", "Records")
-- PUT, GET_REQ
F.addr      = ProtoField.uint64("hxb.addr", "Address", base.HEX)
F.rkey      = ProtoField.uint64("hxb.rkey", "Rkey", base.HEX)
F.length    = ProtoField.uint32("hxb.get.length", "Bytes requested")
F.get_id    = ProtoField.uint32("hxb.get.id", "Get id", base.HEX)
F.get_index = ProtoField.uint16("hxb.get.index", "Get table index")
F.get_gen   = ProtoField.uint32("hxb.get.generation", "Get generation")
-- GET_RESP
F.offset    = ProtoField.uint32("hxb.get.offset", "Offset")
F.status    = ProtoField.uint32("hxb.status", "Status", base.DEC, statuses)
-- ATOMIC
F.a_op      = ProtoField.uint8("hxb.atomic.op", "Operation", base.DEC, atomic_ops)
F.a_size    = ProtoField.uint8("hxb.atomic.size", "Size")
F.a_fetch   = ProtoField.uint8("hxb.atomic.fetch", "Fetch")
F.a_pad     = ProtoField.uint8("hxb.atomic.pad", "Pad")
F.a_value   = ProtoField.uint64("hxb.atomic.value", "Value", base.HEX)
F.a_compare = ProtoField.uint64("hxb.atomic.compare", "Compare", base.HEX)
F.a_op_item = ProtoField.bytes("hxb.atomic.bundled", "Bundled operation")
-- ACK
F.ack_cum   = ProtoField.uint32("hxb.ack.cum", "Cumulative")
F.ack_nbits = ProtoField.uint16("hxb.ack.nbits", "Bitmap bits")
F.ack_dups  = ProtoField.uint16("hxb.ack.dups", "Duplicates")
F.hold_seq  = ProtoField.uint32("hxb.ack.hold_seq", "Hold sequence")
F.hold_us   = ProtoField.uint32("hxb.ack.hold_us", "Hold time (us)")
F.bitmap    = ProtoField.bytes("hxb.ack.bitmap", "SACK bitmap")
F.sack      = ProtoField.string("hxb.ack.sack", "SACKed range")
F.sacked    = ProtoField.uint32("hxb.ack.sacked", "SACKed frames")
-- ERR
F.err_seq   = ProtoField.uint32("hxb.err.seq", "Refused sequence")
-- PING/PONG
F.stamp     = ProtoField.uint64("hxb.ping.stamp", "Stamp", base.HEX)
F.stamp_s   = ProtoField.double("hxb.ping.seconds", "Stamp as seconds (CLOCK_MONOTONIC)")
F.nonce     = ProtoField.uint64("hxb.ping.nonce", "Challenge nonce", base.HEX)
F.ping_rail = ProtoField.uint8("hxb.ping.rail", "Prober's rail")
F.challenge = ProtoField.bool("hxb.ping.challenge", "Epoch challenge (8.9)")
F.ping_pad  = ProtoField.bytes("hxb.ping.pad", "Pad")
-- HELLO
F.h_dim     = ProtoField.uint8("hxb.hello.dim", "Dimension", base.DEC, dims)
F.h_rail    = ProtoField.uint8("hxb.hello.rail", "Rail in dimension")
F.h_int     = ProtoField.uint16("hxb.hello.interval_ms", "Interval (ms)")
F.h_pad     = ProtoField.uint32("hxb.hello.pad", "Pad", base.HEX)
F.payload   = ProtoField.bytes("hxb.payload", "Payload")
F.trailer   = ProtoField.bytes("hxb.trailer", "Bytes after the frame")

-- what hxb_frame_check rejects, one expert each, and the rest
local E = {
    short    = ProtoExpert.new("hxb.e.short", "Shorter than the 44-byte header (dropped: short)",
                               expert.group.MALFORMED, expert.severity.ERROR),
    version  = ProtoExpert.new("hxb.e.version", "Unknown version (dropped: version)",
                               expert.group.MALFORMED, expert.severity.ERROR),
    kind     = ProtoExpert.new("hxb.e.kind", "Invalid kind (dropped: kind)",
                               expert.group.MALFORMED, expert.severity.ERROR),
    length   = ProtoExpert.new("hxb.e.length", "Length field disagrees with the frame (dropped: length)",
                               expert.group.MALFORMED, expert.severity.ERROR),
    checksum = ProtoExpert.new("hxb.e.checksum", "Bad checksum (dropped: checksum)",
                               expert.group.CHECKSUM, expert.severity.ERROR),
    carrier  = ProtoExpert.new("hxb.e.udp_checksum", "Bad UDP checksum: damaged on the way, the receiving kernel drops it",
                               expert.group.CHECKSUM, expert.severity.ERROR),
    seqflag  = ProtoExpert.new("hxb.e.seq_flag", "SEQ flag does not match the kind (dropped: kind, step 7d)",
                               expert.group.PROTOCOL, expert.severity.WARN),
    hops     = ProtoExpert.new("hxb.e.hops", "Hop limit 0 (dropped: hop_limit)",
                               expert.group.PROTOCOL, expert.severity.WARN),
    truncated = ProtoExpert.new("hxb.e.truncated", "Captured only in part (snaplen): checksum not verified",
                               expert.group.UNDECODED, expert.severity.NOTE),
    nonzero  = ProtoExpert.new("hxb.e.reserved", "Reserved or pad field not 0",
                               expert.group.PROTOCOL, expert.severity.NOTE),
    bundle   = ProtoExpert.new("hxb.e.bundle", "Bundle record runs past the payload (dropped: length)",
                               expert.group.MALFORMED, expert.severity.ERROR),
    relayed  = ProtoExpert.new("hxb.e.relayed", "Relayed frame",
                               expert.group.SEQUENCE, expert.severity.CHAT),
}
hxb.experts = { E.short, E.version, E.kind, E.length, E.checksum, E.carrier,
                E.seqflag, E.hops, E.truncated, E.nonzero, E.bundle, E.relayed }

hxb.prefs.udp_ports = Pref.range("UDP ports", "",
    "UDP ports always decoded as hxb (the processes' ports; port 885, the relays', always is)", 65535)
hxb.prefs.heuristic = Pref.bool("Heuristic on UDP", true,
    "Try every UDP datagram: version 4, reserved 0, hops <= 8 and a consistent length")

local udp_csum_status = Field.new("udp.checksum.status")
local udp_srcport = Field.new("udp.srcport")
local udp_dstport = Field.new("udp.dstport")

-- PROTOCOL.md 8.8: the header (csum, hops, rail as 0) and len bytes, as
-- 8-byte little-endian words summed with end-around carry, folded to 32
-- bits, xor 0x5a5a5a5a. Modulo 2^32-1 that is the sum of the 32-bit words,
-- which doubles hold exactly for any frame (< 2^53).
local TWO32 = 4294967296
-- bit operations on unsigned 32-bit numbers: bit32 where Lua has it (5.2:
-- Wireshark 4.0, Debian 12), else LuaBitOp's bit, which every Wireshark
-- carries (4.4's Lua 5.4 has no bit32) and whose results are signed
local band, bxor, lshift, rshift
if bit32 then
    band, bxor, lshift, rshift = bit32.band, bit32.bxor, bit32.lshift, bit32.rshift
else
    local function u(x) return x % 4294967296 end
    band = function(a, b) return u(bit.band(a, b)) end
    bxor = function(a, b) return u(bit.bxor(a, b)) end
    lshift = function(a, n) return u(bit.lshift(a, n)) end
    rshift = function(a, n) return u(bit.rshift(a, n)) end
end
local function frame_csum(tvb, off, len)
    local hdr = { tvb:range(off, HDR):raw():byte(1, HDR) }
    hdr[4] = 0; hdr[7] = 0
    hdr[41], hdr[42], hdr[43], hdr[44] = 0, 0, 0, 0
    local s = { 0, 0, 0, 0 }            -- byte sums by position mod 4
    for i = 1, HDR do s[(i - 1) % 4 + 1] = s[(i - 1) % 4 + 1] + hdr[i] end
    local pos = 0                       -- HDR is a multiple of 4
    local done = 0
    while done < len do
        local n = math.min(4096, len - done)
        local b = { tvb:range(off + HDR + done, n):raw():byte(1, n) }
        for i = 1, n do
            local k = (pos + i - 1) % 4 + 1
            s[k] = s[k] + b[i]
        end
        pos = pos + n
        done = done + n
    end
    local r = s[1] + s[2] * 256 + s[3] * 65536 + s[4] * 16777216
    for _ = 1, 3 do
        local hi = math.floor(r / TWO32)
        r = (r - hi * TWO32) + hi
    end
    return bxor(r, 0x5a5a5a5a)
end

-- the frame being dissected came in a damaged datagram: its fields are
-- shown, not judged (set by dissect_frame for dissect_body)
local g_damaged = false
local function flag(tree, e)
    if not g_damaged then tree:add_proto_expert_info(e) end
end

local function hex64(tvb) return "0x" .. tvb:le_uint64():tohex() end

local function nonzero(tree, tvb)
    for i = 0, tvb:len() - 1 do
        if tvb:range(i, 1):uint() ~= 0 then flag(tree, E.nonzero) return end
    end
end

local function get_id(tree, r)
    local t = tree:add_le(F.get_id, r)
    local v = r:le_uint()
    t:add(F.get_index, r, band(v, 0x3ff)):set_generated()
    t:add(F.get_gen, r, rshift(v, 10)):set_generated()
end

-- SACKed sequence numbers as ranges: bit i of the bitmap is seq cum+1+i
local function sack_ranges(tree, tvb, cum, nbits)
    local ranges, count, start, prev = {}, 0, nil, nil
    for w = 0, nbits / 32 - 1 do
        local word = tvb:range(w * 4, 4):le_uint()
        for b = 0, 31 do
            if band(word, lshift(1, b)) ~= 0 then
                local s = (cum + 1 + w * 32 + b) % TWO32
                count = count + 1
                if start and s == (prev + 1) % TWO32 then prev = s
                else
                    if start then ranges[#ranges + 1] = { start, prev } end
                    start, prev = s, s
                end
            end
        end
    end
    if start then ranges[#ranges + 1] = { start, prev } end
    for _, r in ipairs(ranges) do
        local txt = r[1] == r[2] and tostring(r[1]) or (r[1] .. "-" .. r[2])
        tree:add(F.sack, tvb, txt):set_generated()
    end
    tree:add(F.sacked, tvb, count):set_generated()
    return count, #ranges
end

local function atomic_ext(tree, r)
    tree:add_le(F.a_op, r:range(0, 1))
    tree:add_le(F.a_size, r:range(1, 1))
    tree:add_le(F.a_fetch, r:range(2, 1))
    tree:add_le(F.a_pad, r:range(3, 1))
    get_id(tree, r:range(4, 4))
    tree:add_le(F.addr, r:range(8, 8))
    tree:add_le(F.rkey, r:range(16, 8))
    tree:add_le(F.a_value, r:range(24, 8))
    tree:add_le(F.a_compare, r:range(32, 8))
    local op = atomic_ops[r:range(0, 1):uint()] or "?"
    return string.format("%s size=%d%s", op, r:range(1, 1):uint(),
                         r:range(2, 1):uint() ~= 0 and " fetch" or "")
end

-- the kind's extension and payload: ext = its bytes, pl = the payload (or
-- nil); returns a summary for the Info column
local function dissect_body(kind, flags, t, ext, pl, pkt)
    local bundle = band(flags, 0x40) ~= 0
    local info = ""
    if kind == 1 then                   -- AM
        t:add_le(F.am_id, ext:range(0, 1)); t:add(F.am_pad, ext:range(1, 3))
        t:add_le(F.am_total, ext:range(4, 4))
        info = string.format(" am_id=%d total=%d", ext:range(0, 1):uint(), ext:range(4, 4):le_uint())
        if bundle and pl then
            local off, n = 0, 0
            while off < pl:len() do
                if pl:len() - off < 4 or pl:len() - off - 4 < pl:range(off + 2, 2):le_uint() then
                    flag(t, E.bundle); break
                end
                local dl = pl:range(off + 2, 2):le_uint()
                local rt = t:add(F.rec, pl:range(off, 4 + dl))
                rt:set_text(string.format("AM record: am_id %d, %d bytes", pl:range(off, 1):uint(), dl))
                rt:add(F.rec_am_id, pl:range(off, 1)); rt:add(F.rec_pad, pl:range(off + 1, 1))
                rt:add_le(F.rec_len, pl:range(off + 2, 2))
                off, n = off + 4 + dl, n + 1
            end
            t:add(F.rec_count, n):set_generated()
            info = info .. string.format(" bundle of %d", n)
        end
    elseif kind == 2 then               -- PUT
        t:add_le(F.addr, ext:range(0, 8)); t:add_le(F.rkey, ext:range(8, 8))
        info = " addr=" .. hex64(ext:range(0, 8))
        if bundle and pl then
            local off, n = 0, 0
            while off < pl:len() do
                if pl:len() - off < 18 or pl:len() - off - 18 < pl:range(off + 16, 2):le_uint() then
                    flag(t, E.bundle); break
                end
                local dl = pl:range(off + 16, 2):le_uint()
                local rt = t:add(F.rec, pl:range(off, 18 + dl))
                rt:set_text(string.format("PUT record: addr %s, %d bytes", hex64(pl:range(off, 8)), dl))
                rt:add_le(F.rec_addr, pl:range(off, 8)); rt:add_le(F.rec_rkey, pl:range(off + 8, 8))
                rt:add_le(F.rec_len, pl:range(off + 16, 2))
                off, n = off + 18 + dl, n + 1
            end
            t:add(F.rec_count, n):set_generated()
            info = info .. string.format(" bundle of %d", n)
        end
    elseif kind == 3 then               -- GET_REQ
        t:add_le(F.addr, ext:range(0, 8)); t:add_le(F.rkey, ext:range(8, 8))
        t:add_le(F.length, ext:range(16, 4)); get_id(t, ext:range(20, 4))
        info = string.format(" length=%d get_id=0x%x", ext:range(16, 4):le_uint(), ext:range(20, 4):le_uint())
    elseif kind == 4 then               -- GET_RESP
        get_id(t, ext:range(0, 4)); t:add_le(F.offset, ext:range(4, 4))
        t:add_le(F.status, ext:range(8, 4))
        info = string.format(" get_id=0x%x offset=%d%s", ext:range(0, 4):le_uint(),
                             ext:range(4, 4):le_uint(),
                             ext:range(8, 4):le_uint() ~= 0 and " REFUSED" or "")
    elseif kind == 6 then               -- ATOMIC
        info = " " .. atomic_ext(t, ext)
        if pl then
            local n = 0
            if pl:len() % 40 ~= 0 then flag(t, E.length) end
            for off = 0, pl:len() - 40, 40 do
                local at = t:add(F.a_op_item, pl:range(off, 40))
                at:set_text("Bundled atomic: " .. atomic_ext(at, pl:range(off, 40)))
                n = n + 1
            end
            if n > 0 then info = info .. string.format(" +%d bundled", n) end
        end
    elseif kind == 16 then              -- ACK
        t:add_le(F.ack_cum, ext:range(0, 4)); t:add_le(F.ack_nbits, ext:range(4, 2))
        t:add_le(F.ack_dups, ext:range(6, 2)); t:add_le(F.hold_seq, ext:range(8, 4))
        local hold = t:add_le(F.hold_us, ext:range(12, 4))
        if ext:range(12, 4):le_uint() == 0xffffffff then hold:append_text(" (HXB_HOLD_NONE: nothing received yet)") end
        local cum, nbits = ext:range(0, 4):le_uint(), ext:range(4, 2):le_uint()
        info = string.format(" cum=%d", cum)
        if pl and nbits > 0 and nbits % 64 == 0 and pl:len() >= nbits / 8 then
            local bt = t:add(F.bitmap, pl:range(0, nbits / 8))
            local c, nr = sack_ranges(bt, pl:range(0, nbits / 8), cum, nbits)
            info = info .. string.format(" sacked=%d in %d ranges", c, nr)
        end
        if ext:range(6, 2):le_uint() > 0 then info = info .. " dups=" .. ext:range(6, 2):le_uint() end
    elseif kind == 17 then              -- ERR
        t:add_le(F.err_seq, ext:range(0, 4)); t:add_le(F.status, ext:range(4, 4))
        info = string.format(" refused seq=%d status=%s", ext:range(0, 4):le_uint(),
                             statuses[ext:range(4, 4):le_uint()] or "?")
    elseif kind == 18 or kind == 19 then -- PING, PONG
        local rail = ext:range(8, 1):uint()
        if rail == 0xfe then
            t:add_le(F.nonce, ext:range(0, 8))
            t:add(F.challenge, ext:range(8, 1), true):set_generated()
            info = string.format(" challenge of epoch %d nonce=%s", pkt.dst_epoch, hex64(ext:range(0, 8)))
        else
            t:add_le(F.stamp, ext:range(0, 8))
            t:add_le(F.stamp_s, ext:range(0, 8)):set_generated()
            info = string.format(" rail=%d", rail)
        end
        t:add(F.ping_rail, ext:range(8, 1)); t:add(F.ping_pad, ext:range(9, 7))
        nonzero(t, ext:range(9, 7))
    elseif kind == 20 then              -- HELLO
        t:add(F.h_dim, ext:range(0, 1)); t:add(F.h_rail, ext:range(1, 1))
        t:add_le(F.h_int, ext:range(2, 2)); t:add_le(F.h_pad, ext:range(4, 4))
        nonzero(t, ext:range(4, 4))
        info = string.format(" from node %d on %s%d, every %d ms, #%d of run %d",
                             pkt.src_node, dims[ext:range(0, 1):uint()] or "?",
                             ext:range(1, 1):uint(), ext:range(2, 2):le_uint(), pkt.seq, pkt.src_epoch)
    end
    if pl and pl:len() > 0 and not (bundle and (kind == 1 or kind == 2)) and kind ~= 16 and kind ~= 6 then
        t:add(F.payload, pl)
        info = info .. string.format(" data=%d", pl:len())
    end
    return info
end

-- the flags byte r, and each flag under it
local function flags_tree(t, r)
    local ft = t:add(F.flags, r)
    for _, fl in ipairs({ F.f_csum, F.f_seq, F.f_busy, F.f_more, F.f_first, F.f_last,
                          F.f_bundle, F.f_ordered }) do
        ft:add(fl, r)
    end
end

-- A short data frame (PROTOCOL.md 3.1) at tvb[off..] of size bytes (the
-- rest of the datagram, or the train's segment size): no dst, epochs or
-- length in it, which its receiver supplies; returns size and the Info
local function dissect_short(tvb, off, size, cap, root, carrier, damaged, idx)
    local t = root:add(hxb, tvb:range(off, math.min(cap, size)))
    local kind, flags = tvb:range(off + 1, 1):uint(), tvb:range(off + 2, 1):uint()
    local src_node, src_proc = tvb:range(off + 4, 2):le_uint(), tvb:range(off + 6, 2):le_uint()
    local name = kinds[kind] or ("kind " .. kind)
    local info = string.format("%s %d:%d (short) seq=%d", name, src_node, src_proc,
                               tvb:range(off + 8, 4):le_uint())
    t:add(F.carrier, carrier):set_generated()
    if idx then t:add(F.train, idx):set_generated() end
    t:add(F.short, true):set_generated()
    t:add(F.version, tvb:range(off, 1))
    t:add(F.kind, tvb:range(off + 1, 1))
    flags_tree(t, tvb:range(off + 2, 1))
    t:add(F.am_id, tvb:range(off + 3, 1))
    t:add_le(F.src_node, tvb:range(off + 4, 2)); t:add_le(F.src_proc, tvb:range(off + 6, 2))
    t:add_le(F.node, tvb:range(off + 4, 2)):set_hidden()
    t:add_le(F.seq, tvb:range(off + 8, 4)); t:add_le(F.tag, tvb:range(off + 12, 8))
    t:append_text(string.format(", %s (short), %d:%d", name, src_node, src_proc))
    local x = short_ext[kind]
    -- what hxb_short_expand refuses (the receiver counts it as kind or length)
    if not x then
        if not damaged then t:add_proto_expert_info(E.kind) end
        return size, info .. " [invalid]"
    end
    if size < SHDR + x or band(flags, 2) == 0 or band(flags, 0x51) ~= 0 or
       (kind ~= 1 and tvb:range(off + 3, 1):uint() ~= 0) then
        if not damaged then t:add_proto_expert_info(E.length) end
        return size, info .. " [invalid]"
    end
    local et = t:add(tvb:range(off + SHDR, math.max(x, 0)), name .. " extension (short)")
    if kind == 1 then
        et:set_text("AM: no extension (am_id in the header)")
        info = info .. string.format(" am_id=%d", tvb:range(off + 3, 1):uint())
    elseif kind == 2 then
        et:add_le(F.addr, tvb:range(off + SHDR, 8)); et:add_le(F.rkey, tvb:range(off + SHDR + 8, 8))
        info = info .. " addr=" .. hex64(tvb:range(off + SHDR, 8))
    else
        get_id(et, tvb:range(off + SHDR, 4)); et:add_le(F.offset, tvb:range(off + SHDR + 4, 4))
        info = info .. string.format(" get_id=0x%x offset=%d", tvb:range(off + SHDR, 4):le_uint(),
                                     tvb:range(off + SHDR + 4, 4):le_uint())
    end
    local plen = math.min(size, cap) - SHDR - x
    if plen > 0 then
        t:add(F.payload, tvb:range(off + SHDR + x, plen))
        info = info .. string.format(" data=%d", size - SHDR - x)
    end
    return size, info
end

-- one frame at tvb[off..]; returns the bytes it takes (44 + len, or all
-- that is left when that is not a frame) and the Info summary
local function dissect_frame(tvb, off, pinfo, root, carrier, damaged, idx)
    local left = tvb:reported_length_remaining(off)
    local cap = tvb:len() - off
    if left < HDR or cap < HDR then
        local t = root:add(hxb, tvb:range(off))
        if not damaged then t:add_proto_expert_info(E.short) end
        return left, "short frame"
    end
    local h = tvb:range(off, HDR)
    local version, kind, flags = h:range(0, 1):uint(), h:range(1, 1):uint(), h:range(2, 1):uint()
    local hops, len = h:range(3, 1):uint(), h:range(4, 2):le_uint()
    local size = math.min(left, HDR + len)
    local t = root:add(hxb, tvb:range(off, math.min(cap, size)))
    local pkt = {
        src_node = h:range(16, 2):le_uint(), src_proc = h:range(18, 2):le_uint(),
        dst_node = h:range(20, 2):le_uint(), dst_proc = h:range(22, 2):le_uint(),
        src_epoch = h:range(24, 4):le_uint(), dst_epoch = h:range(28, 4):le_uint(),
        seq = h:range(32, 4):le_uint(),
    }
    t:add(F.carrier, carrier):set_generated()
    if idx then t:add(F.train, idx):set_generated() end
    t:add(F.version, h:range(0, 1))
    t:add(F.kind, h:range(1, 1))
    flags_tree(t, h:range(2, 1))
    t:add(F.hops, h:range(3, 1)); t:add_le(F.len, h:range(4, 2))
    t:add(F.rail, h:range(6, 1)); t:add(F.reserved, h:range(7, 1))
    t:add_le(F.tag, h:range(8, 8))
    t:add_le(F.src_node, h:range(16, 2)); t:add_le(F.src_proc, h:range(18, 2))
    t:add_le(F.dst_node, h:range(20, 2)); t:add_le(F.dst_proc, h:range(22, 2))
    t:add_le(F.node, h:range(16, 2)):set_hidden(); t:add_le(F.node, h:range(20, 2)):set_hidden()
    t:add_le(F.src_epoch, h:range(24, 4)); t:add_le(F.dst_epoch, h:range(28, 4))
    t:add_le(F.seq, h:range(32, 4)); t:add_le(F.ack, h:range(36, 4))
    local ct = t:add_le(F.csum, h:range(40, 4))

    local relayed = carrier == "relay" or (hops < HOPS_MAX and kind ~= 20)
    t:add(F.relayed, relayed):set_generated()
    local name = kinds[kind] or ("kind " .. kind)
    local info = string.format("%s %d:%d > %d:%d", name, pkt.src_node, pkt.src_proc,
                               pkt.dst_node, pkt.dst_proc)
    if band(flags, 2) ~= 0 then info = info .. " seq=" .. pkt.seq end
    if relayed then
        t:add_proto_expert_info(E.relayed)
        info = info .. string.format(" [relayed, hops %d]", hops)
    end
    t:append_text(string.format(", %s, %d:%d -> %d:%d", name, pkt.src_node, pkt.src_proc,
                                pkt.dst_node, pkt.dst_proc))

    -- hxb_frame_check, in its order; the first failure is what a receiver
    -- drops it as. A damaged datagram (bad UDP checksum) never reaches
    -- hxb: its fields are shown, not judged.
    local function bad(e)
        if not damaged then t:add_proto_expert_info(e) end
        return size, info .. " [" .. (damaged and "damaged" or "invalid") .. "]"
    end
    if version ~= VERSION then return bad(E.version) end
    local ext = ext_len[kind]
    if not ext then return bad(E.kind) end
    local lenok = HDR + len <= left and len >= ext
    if lenok and kind == 16 then
        local nbits = tvb:range(off + HDR + 4, 2):le_uint()
        lenok = nbits % 64 == 0 and nbits <= SACK_BITS and len == ext + nbits / 8
    elseif lenok and len_exact[kind] then
        lenok = len == ext
    end
    -- the body, as far as it is there
    if cap >= HDR + ext and left >= HDR + ext then
        g_damaged = damaged
        local et = t:add(tvb:range(off + HDR, ext), name .. " extension")
        local plen = math.min(len - ext, cap - HDR - ext, left - HDR - ext)
        local pl = plen > 0 and tvb:range(off + HDR + ext, plen) or nil
        if ext == 0 then et:set_text(name .. ": no extension") end
        info = info .. dissect_body(kind, flags, et, tvb:range(off + HDR, math.max(ext, 0)), pl, pkt)
    end
    if not lenok then return bad(E.length) end
    if band(flags, 1) ~= 0 or h:range(40, 4):le_uint() ~= 0 then
        if cap < HDR + len then
            t:add_proto_expert_info(E.truncated)
        else
            local want = h:range(40, 4):le_uint()
            local got = frame_csum(tvb, off, len)
            ct:add(F.csum_calc, got):set_generated()
            ct:add(F.csum_ok, got == want):set_generated()
            if got ~= want then
                ct:add_proto_expert_info(E.checksum)
                return size, info .. " [bad checksum]"
            end
        end
    end
    local seqkind = kind < 16
    if seqkind ~= (band(flags, 2) ~= 0) and kind ~= 16 then
        if not damaged then t:add_proto_expert_info(E.seqflag) end
    end
    if hops == 0 and not damaged then t:add_proto_expert_info(E.hops) end
    return size, info
end

local function dissect(tvb, pinfo, root, carrier)
    pinfo.cols.protocol = "hxb"
    local damaged = false
    if carrier ~= "raw" then
        local st = udp_csum_status()
        damaged = st ~= nil and st.value == 0         -- PROTO_CHECKSUM_E_BAD
        if damaged then root:add_proto_expert_info(E.carrier) end
    end
    local off, idx, infos, seg = 0, 0, {}, nil
    local total = tvb:reported_len()
    repeat
        local used, info
        local left = tvb:reported_length_remaining(off)
        if carrier ~= "raw" and tvb:len() > off and tvb:range(off, 1):uint() == SHORT and
           left >= SHDR and tvb:len() - off >= SHDR then
            -- a short frame has no length: a train's frames are the size of
            -- its first (all but the last), else it is the whole datagram
            used, info = dissect_short(tvb, off, seg and math.min(seg, left) or left,
                                       tvb:len() - off, root, carrier, damaged,
                                       total > SHDR and idx or nil)
        else
            used, info = dissect_frame(tvb, off, pinfo, root, carrier, damaged,
                                       carrier ~= "raw" and total > HDR and idx or nil)
        end
        seg = seg or used
        infos[#infos + 1] = info
        off, idx = off + used, idx + 1
        -- a raw frame is one frame (Ethernet may pad it); a datagram may
        -- hold a train of frames, back to back
        -- (a damaged one is not cut further: its lengths may be wrong)
    until carrier == "raw" or damaged or used <= 0 or tvb:reported_length_remaining(off) < SHDR
    if carrier ~= "raw" and tvb:reported_length_remaining(off) > 0 then
        if off < tvb:len() then root:add(F.trailer, tvb:range(off)) end
        if not damaged then root:add_proto_expert_info(E.short) end
        off = total
    end
    if #infos > 1 then
        pinfo.cols.info = string.format("[%d frames] ", #infos) .. table.concat(infos, "; ")
    else
        pinfo.cols.info = infos[1]
    end
    return off
end

function hxb.dissector(tvb, pinfo, root)
    local carrier = "raw"
    local sp, dp = udp_srcport(), udp_dstport()
    if sp then
        carrier = (sp.value == RELAY_PORT or dp.value == RELAY_PORT) and "relay" or "udp"
    end
    return dissect(tvb, pinfo, root, carrier)
end

-- UDP datagrams on other ports: hxb's if they look like it
local function heuristic(tvb, pinfo, root)
    if not hxb.prefs.heuristic or tvb:len() < SHDR then return false end
    if tvb:range(0, 1):uint() == SHORT then
        -- a short frame: a data kind, sequenced, no forbidden flag
        if not short_ext[tvb:range(1, 1):uint()] or band(tvb:range(2, 1):uint(), 0x53) ~= 2 then
            return false
        end
    elseif tvb:len() < HDR or tvb:range(0, 1):uint() ~= VERSION or tvb:range(7, 1):uint() ~= 0 or
       tvb:range(3, 1):uint() > HOPS_MAX or
       HDR + tvb:range(4, 2):le_uint() > tvb:reported_len() then
        return false
    end
    local sp, dp = udp_srcport(), udp_dstport()
    local carrier = (sp and (sp.value == RELAY_PORT or dp.value == RELAY_PORT)) and "relay" or "udp"
    dissect(tvb, pinfo, root, carrier)
    return true
end

local udp_table = DissectorTable.get("udp.port")
DissectorTable.get("ethertype"):add(0x88B5, hxb)
udp_table:add(RELAY_PORT, hxb)
hxb:register_heuristic("udp", heuristic)

local ports_now = ""
function hxb.prefs_changed()
    if ports_now ~= "" then udp_table:remove(ports_now, hxb) end
    ports_now = tostring(hxb.prefs.udp_ports or "")
    if ports_now ~= "" then udp_table:add(ports_now, hxb) end
end
