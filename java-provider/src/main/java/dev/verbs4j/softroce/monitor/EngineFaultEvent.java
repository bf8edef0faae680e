package dev.verbs4j.softroce.monitor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** JFR: an unexpected exception in a device's engine (see {@link SoftEvents#engineFault}). */
@Name(SoftEvents.PREFIX + "EngineFault")
@Label("Engine Fault")
@Category({"verbs4j", "Soft RoCE"})
@Description("The engine of a soft device caught an unexpected exception; the first one raises IBV_EVENT_DEVICE_FATAL")
final class EngineFaultEvent extends jdk.jfr.Event {
    @Label("Device")
    String device;

    @Label("Exception")
    String exception;

    @Label("Message")
    String message;
}
