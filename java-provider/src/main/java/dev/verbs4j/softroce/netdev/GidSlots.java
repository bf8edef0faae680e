package dev.verbs4j.softroce.netdev;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A port's GID table as the kernel's RoCE GID cache keeps it for an rxe device on a netdev
 * (RoCE v2 GIDs only, one entry per address, since rxe's port speaks RoCE v2 alone):
 * <ul>
 * <li>index 0 is the default GID, {@code fe80::} and the EUI-64 of the interface's hardware
 *     address, reserved for it whether or not the interface has that address;</li>
 * <li>every other address takes the lowest free index when it appears and keeps it until it
 *     goes: the IPv4 addresses (as {@code ::ffff:a.b.c.d}) and then the IPv6 ones when the
 *     table is first filled, later ones as they come;</li>
 * <li>an address that goes leaves its index empty ({@code ibv_devinfo} skips it), and an
 *     IPv6 address equal to the default GID takes no second entry.</li>
 * </ul>
 * So an index names the same address here as in the kernel's table of the same interface,
 * when both saw the same changes. The table is filled by one thread (the device's engine).
 */
public final class GidSlots {
    private final InetAddress[] slots;

    /** @param length the table's length (16 for a soft device) */
    public GidSlots(int length) {
        slots = new InetAddress[length];
    }

    /**
     * Brings the table to {@code netdev}'s addresses.
     *
     * @return the indexes whose entry changed, in order
     */
    public List<Integer> update(NetdevSnapshot netdev) {
        List<InetAddress> wanted = new ArrayList<>();
        Inet6Address defaultGid = defaultGid(netdev);
        wanted.addAll(netdev.ipv4());
        for (Inet6Address six : netdev.ipv6()) {
            if (defaultGid == null || !Arrays.equals(six.getAddress(), defaultGid.getAddress())) {
                wanted.add(six);
            }
        }
        List<Integer> changed = new ArrayList<>();
        if (!same(slots[0], defaultGid)) {
            slots[0] = defaultGid;
            changed.add(0);
        }
        for (int i = 1; i < slots.length; i++) {
            if (slots[i] != null && !containsAddress(wanted, slots[i])) {
                slots[i] = null;
                changed.add(i);
            }
        }
        for (InetAddress a : wanted) {
            if (indexOf(a) < 0) {
                for (int i = 1; i < slots.length; i++) {
                    if (slots[i] == null) {
                        slots[i] = a;
                        changed.add(i);
                        break;
                    }
                }
            }
        }
        changed.sort(null);
        return changed;
    }

    /** The address at {@code index}: an {@link Inet4Address} for an IPv4-mapped GID; null when empty. */
    public InetAddress address(int index) {
        return index >= 0 && index < slots.length ? slots[index] : null;
    }

    /** The table's length. */
    public int length() {
        return slots.length;
    }

    /** The index of {@code address}, or -1. */
    public int indexOf(InetAddress address) {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null && Arrays.equals(slots[i].getAddress(), address.getAddress())) {
                return i;
            }
        }
        return -1;
    }

    /** A copy of the table, empty entries null. */
    public InetAddress[] snapshot() {
        return slots.clone();
    }

    /**
     * The default GID of an interface with hardware address {@code mac}: {@code fe80::} and the
     * modified EUI-64 of the address (its universal/local bit flipped, {@code ff:fe} in the
     * middle), scoped to the interface; null for an interface without a 6-byte address.
     */
    public static Inet6Address defaultGid(NetdevSnapshot netdev) {
        byte[] mac = netdev.mac();
        if (mac == null || mac.length != 6) {
            return null;
        }
        byte[] gid = new byte[16];
        gid[0] = (byte) 0xfe;
        gid[1] = (byte) 0x80;
        gid[8] = (byte) (mac[0] ^ 0x02);
        gid[9] = mac[1];
        gid[10] = mac[2];
        gid[11] = (byte) 0xff;
        gid[12] = (byte) 0xfe;
        gid[13] = mac[3];
        gid[14] = mac[4];
        gid[15] = mac[5];
        try {
            return Inet6Address.getByAddress(null, gid, netdev.index());
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean same(InetAddress a, InetAddress b) {
        return a == null ? b == null : b != null && Arrays.equals(a.getAddress(), b.getAddress());
    }

    private static boolean containsAddress(List<InetAddress> list, InetAddress a) {
        for (InetAddress x : list) {
            if (same(x, a)) {
                return true;
            }
        }
        return false;
    }
}
