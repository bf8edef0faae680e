package dev.verbs4j.conformance.agent;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Memory a case shares with an agent belongs to the case's arena: after the case ends, a
 * thread that still holds it fails with an exception, where it once read a range made
 * inaccessible again and took the JVM down (a reader thread outliving its case).
 */
class SharedMemoryTest {
    @ParameterizedTest
    @EnumSource(value = AgentClient.MemoryChoice.class, names = {"AUTO", "CHANNEL"})
    void memoryOfAnEndedCaseCannotBeReachedAnyMore(AgentClient.MemoryChoice choice, @TempDir Path folder) {
        AgentProcess process = AgentProcess.start(List.of(), folder.resolve("agent.log"));
        AgentClient client = AgentClient.connect(process.address(), process, folder, choice);
        SharedMemory memory = client.memory();
        assertEquals(choice == AgentClient.MemoryChoice.CHANNEL ? SharedMemory.Mode.CHANNEL : SharedMemory.Mode.FILES, memory.mode(),
                "an agent on this machine shares files unless the channel is asked for");
        try {
            MemorySegment word;
            try (Arena caseArena = Arena.ofShared()) {
                word = memory.memory(8, caseArena);
                word.set(ValueLayout.JAVA_LONG, 0, 42L);
                assertEquals(42L, word.get(ValueLayout.JAVA_LONG, 0));
            }
            MemorySegment ended = word;
            assertThrows(IllegalStateException.class, () -> ended.get(ValueLayout.JAVA_LONG, 0));
        } finally {
            memory.close();
        }
    }
}
