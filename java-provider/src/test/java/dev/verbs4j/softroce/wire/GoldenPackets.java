package dev.verbs4j.softroce.wire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The golden RoCEv2 datagrams written by {@code src/test/golden/generate_roce_golden.py}
 * (scapy plus an independent Python ICRC), one whole IP datagram per line.
 */
public final class GoldenPackets {
    public static final String RESOURCE = "/golden/roce-v2-packets.txt";

    public record Packet(String name, int ipVersion, InetAddress source, InetAddress destination,
                  int sourcePort, int destinationPort, int ipv4Id, byte[] datagram) {

        public int ipHeaderLength() {
            return ipVersion == 4 ? IpUdpHeaders.IPV4_HEADER_LENGTH : IpUdpHeaders.IPV6_HEADER_LENGTH;
        }

        public int udpPayloadOffset() {
            return ipHeaderLength() + IpUdpHeaders.UDP_HEADER_LENGTH;
        }

        public int udpPayloadLength() {
            return datagram.length - udpPayloadOffset();
        }

        /** The flow as the receiver sees it: from the sender to us. */
        public UdpFlow flow() {
            return new UdpFlow().set(source, sourcePort, destination, destinationPort);
        }

        /** A fresh native copy of the UDP payload (BTH through ICRC). */
        public MemorySegment udpPayload() {
            MemorySegment segment = Arena.ofAuto().allocate(udpPayloadLength());
            MemorySegment.copy(MemorySegment.ofArray(datagram), udpPayloadOffset(), segment, 0, udpPayloadLength());
            return segment;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private GoldenPackets() {
    }

    public static List<Packet> all() {
        List<Packet> packets = new ArrayList<>();
        try (InputStream in = GoldenPackets.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + RESOURCE);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                packets.add(new Packet(f[0], Integer.parseInt(f[1]), address(f[2]), address(f[3]),
                        Integer.parseInt(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]),
                        HexFormat.of().parseHex(f[7])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return packets;
    }

    public static Packet named(String name) {
        return all().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no golden packet " + name));
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }
}
