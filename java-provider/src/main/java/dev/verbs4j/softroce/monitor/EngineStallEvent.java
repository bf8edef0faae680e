package dev.verbs4j.softroce.monitor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR: a device's engine thread did not step for a long time (see {@link SoftEvents#engineStall}). */
@Name(SoftEvents.PREFIX + "EngineStall")
@Label("Engine Stall")
@Category({"verbs4j", "Soft RoCE"})
@Description("The engine thread of a soft device went longer than the stall threshold between two steps (a long "
        + "step, a pause of the JVM or a thread the scheduler did not run); its timers and packets waited")
@StackTrace(false)
final class EngineStallEvent extends jdk.jfr.Event {
    @Label("Device")
    String device;

    @Label("Gap")
    @Timespan(Timespan.NANOSECONDS)
    long gapNs;
}
