package dev.verbs4j.nvmeof.controller;

import java.nio.ByteBuffer;
import java.util.UUID;

/** NGUIDs from UUIDs: 16 bytes, big-endian as the UUID reads. */
final class Nguid {
    private Nguid() {
    }

    static byte[] of(UUID uuid) {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits())
                .array();
    }
}
