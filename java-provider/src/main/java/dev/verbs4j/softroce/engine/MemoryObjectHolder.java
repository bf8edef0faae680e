package dev.verbs4j.softroce.engine;

import dev.verbs4j.softroce.memory.MemoryObject;

/** Implemented by the soft provider's regions and windows, so work requests can name them. */
public interface MemoryObjectHolder {
    MemoryObject memoryObject();
}
