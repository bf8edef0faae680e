package dev.verbs4j.conformance.agent;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.conformance.fixture.PeerProcessDevice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A device of a peer agent process, as the fixture sees it: opening it starts a session
 * with the agent (first starting the agent, in {@value #SPAWN} mode) and opens the device
 * there. The run's memory is then the session's shared memory: files both processes map
 * when the agent is on this machine, else copies kept level over the control channel.
 * It has no libibverbs counterpart: it stands for a {@code struct ibv_device} in another process, reached through the agent's protocol.
 */
public final class AgentDevice implements PeerProcessDevice {
    /** {@code --peer-agent spawn}: the test process starts the agent itself, on loopback. */
    public static final String SPAWN = "spawn";

    private final String agent;
    private final String provider;
    private final String name;
    private final List<String> jvmOptions;
    private final Path folder;
    private final Path log;
    private final AgentClient.MemoryChoice memoryChoice;
    private AgentClient client;

    /**
     * A device served by an agent process, reached when it is first opened.
     *
     * @param agent      {@code host:port} of a running agent, or {@value #SPAWN}
     * @param provider   the provider in the agent
     * @param name       the device in the agent
     * @param jvmOptions options for a spawned agent's JVM, separated by spaces
     * @param folder     a folder both processes see, on tmpfs (when the agent is on this machine)
     * @param log        where a spawned agent's output goes
     * @param memory     {@code auto} (or null), {@code files} or {@code channel}: how the memory is shared
     */
    public AgentDevice(String agent, String provider, String name, String jvmOptions, Path folder, Path log, String memory) {
        this.agent = agent;
        this.provider = provider;
        this.name = name;
        this.jvmOptions = jvmOptions == null || jvmOptions.isBlank() ? List.of() : Arrays.asList(jvmOptions.trim().split("\\s+"));
        this.folder = folder;
        this.log = log;
        this.memoryChoice = AgentClient.MemoryChoice.of(memory);
    }

    /**
     * The folder shared memory uses by default: {@code /dev/shm} where it exists, else the temporary folder.
     *
     * @return the folder
     */
    public static Path defaultFolder() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long guid() {
        return 0;
    }

    @Override
    public String providerName() {
        return provider;
    }

    /**
     * IB: the agent's protocol does not carry the transport, and the pairs it serves meet the
     * soft provider, which speaks RoCE only.
     */
    @Override
    public dev.verbs4j.Transport transport() {
        return dev.verbs4j.Transport.IB;
    }

    @Override
    public synchronized DeviceContext open() {
        if (client != null) {
            throw new IllegalStateException("the agent's device is open already");
        }
        AgentProcess process = agent.equals(SPAWN) ? AgentProcess.start(jvmOptions, log) : null;
        client = AgentClient.connect(process != null ? process.address() : AgentMain.parseAddress(agent), process, folder, memoryChoice);
        try {
            return client.open(provider, name);
        } catch (RuntimeException e) {
            client.memory().close();
            client = null;
            throw e;
        }
    }

    @Override
    public synchronized dev.verbs4j.cm.CmEventChannel createCmEventChannel() {
        if (client == null) {
            throw new IllegalStateException("open the agent's device first");
        }
        return client.cmEventChannel(provider);
    }

    @Override
    public synchronized SharedMemory memory() {
        if (client == null) {
            throw new IllegalStateException("open the agent's device first");
        }
        return client.memory();
    }

    @Override
    public synchronized <T> T local(T resource) {
        if (client == null) {
            throw new IllegalStateException("open the agent's device first");
        }
        return client.local(resource);
    }

    @Override
    public String toString() {
        return provider + "/" + name + " in the agent at " + agent;
    }
}
