package dev.verbs4j.softroce.monitor;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanNotificationInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanConstructorInfo;
import java.util.function.IntToLongFunction;

/**
 * A set of counters as a read-only MBean: one {@code long} attribute per counter, named as
 * the counter is ({@code packets_in}, {@code retransmits}, {@code drop_icrc}, ...). Values are
 * read when asked for; nothing is kept or copied on the engine's side.
 */
final class CountersMBean implements DynamicMBean {
    private final String[] names;
    private final IntToLongFunction values;
    private final MBeanInfo info;

    /** @param values the value of counter {@code i}, for {@code i} below {@code names.length} */
    CountersMBean(String description, String[] names, IntToLongFunction values) {
        this.names = names;
        this.values = values;
        MBeanAttributeInfo[] attributes = new MBeanAttributeInfo[names.length];
        for (int i = 0; i < names.length; i++) {
            attributes[i] = new MBeanAttributeInfo(names[i], "long", names[i].replace('_', ' '), true, false, false);
        }
        this.info = new MBeanInfo(CountersMBean.class.getName(), description, attributes, new MBeanConstructorInfo[0],
                new MBeanOperationInfo[0], new MBeanNotificationInfo[0]);
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(attribute)) {
                return values.applyAsLong(i);
            }
        }
        throw new AttributeNotFoundException("no counter " + attribute);
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String name : attributes) {
            try {
                list.add(new Attribute(name, getAttribute(name)));
            } catch (AttributeNotFoundException e) {
                // JMX leaves unknown attributes out of the list
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("counters are read-only: " + attribute.getName());
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("counters have no operations: " + actionName);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }
}
