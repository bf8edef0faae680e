package dev.verbs4j.tools;

import dev.verbs4j.Device;
import dev.verbs4j.Mtu;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;
import dev.verbs4j.softroce.SoftDeviceConfig;
import dev.verbs4j.softroce.SoftProvider;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.List;

/** The device a command works on: named, the provider's first, or a soft device made on an address. */
public final class DeviceChoice {
    private DeviceChoice() {
    }

    /**
     * @param providerName the provider
     * @param deviceName   the device, or null for the provider's first (or the one {@code address} makes)
     * @param address      an IP address to make a soft device on (inside a network namespace, on another host),
     *                     {@code netdev:IF} for one on interface IF, or null
     * @throws IllegalArgumentException when no such device exists
     */
    public static Device choose(String providerName, String deviceName, String address) {
        if (address != null && address.startsWith(SoftDeviceConfig.NETDEV_PREFIX)) {
            String netdev = address.substring(SoftDeviceConfig.NETDEV_PREFIX.length());
            return SoftProvider.addDevice(SoftDeviceConfig.onInterface("soft-" + netdev, netdev));
        }
        if (address != null) {
            InetAddress ip = SoftDeviceConfig.ipLiteral(address);
            Mtu mtu = Mtu.fittingEthernetMtu(interfaceMtu(ip));
            return SoftProvider.addDevice(SoftDeviceConfig.of("soft-" + address, ip).withMtu(mtu));
        }
        Provider provider = Verbs.provider(providerName);
        List<Device> devices = provider.devices();
        if (deviceName == null) {
            if (devices.isEmpty()) {
                throw new IllegalStateException("provider " + provider.name() + " has no device"
                        + provider.unavailableReason().map(r -> ": " + r).orElse(""));
            }
            return devices.getFirst();
        }
        return devices.stream().filter(d -> d.name().equals(deviceName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no device " + deviceName + " in provider " + provider.name()
                        + "; found " + devices.stream().map(Device::name).toList()));
    }

    /** The MTU of the interface that owns {@code ip}: the device's active MTU follows it, as rxe's follows its netdev. */
    private static int interfaceMtu(InetAddress ip) {
        try {
            NetworkInterface nic = NetworkInterface.getByInetAddress(ip);
            if (nic == null) {
                throw new IllegalArgumentException("no network interface has the address " + ip.getHostAddress());
            }
            return nic.getMTU();
        } catch (SocketException e) {
            throw new UncheckedIOException("cannot read the MTU of the interface with " + ip.getHostAddress(), e);
        }
    }
}
