package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_pci_atomic_caps}: PCIe atomic operand sizes ({@code
 * IBV_PCI_ATOMIC_OPERATION_*} bits).
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_pci_atomic_caps extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_pci_atomic_caps}, freed by {@link #close()} or once unreachable. */
    public ibv_pci_atomic_caps() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_pci_atomic_caps(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_pci_atomic_caps}. */
    public ibv_pci_atomic_caps(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_pci_atomic_caps position(long position) {
        return (ibv_pci_atomic_caps) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_pci_atomic_caps getPointer(long i) {
        return new ibv_pci_atomic_caps((Pointer) this).offsetAddress(i);
    }

    @MemberGetter
    public native @Cast("uint16_t") int fetch_add();

    @MemberGetter
    public native @Cast("uint16_t") int swap();

    @MemberGetter
    public native @Cast("uint16_t") int compare_swap();
}
