package dev.verbs4j.conformance.agent;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The local side's resources when the agent's memory travels over the control channel: each
 * is a stand-in that runs every call on the real resource, and around the calls that can
 * move the remote side's bytes it brings the two copies level.
 * <ul>
 *   <li>before a post ({@code postSend}, {@code postRecv}): the bytes this process wrote
 *   into the remote side's memory go to the agent, so a READ, an atomic or a FLUSH from
 *   here finds them there;</li>
 *   <li>after a poll or an event wait that returned something: what the remote side's
 *   memory gained comes back, so a case that saw its completion sees its bytes.</li>
 * </ul>
 * Everything the case hands in is unwrapped to the real resources (in work requests and
 * attributes too), and every resource handed back is a stand-in, one per real resource.
 */
final class LocalCalls {
    private static final Map<Class<?>, Boolean> MAY_HOLD_RESOURCE = new ConcurrentHashMap<>();

    private final AgentClient agent;
    private final Map<Object, Object> standIns = new IdentityHashMap<>();

    LocalCalls(AgentClient agent) {
        this.agent = agent;
    }

    /** The stand-in for {@code real} (itself when it is no resource). */
    @SuppressWarnings("unchecked")
    synchronized <T> T standIn(T real) {
        Class<?> type = RemoteTypes.interfaceOf(real);
        if (real == null || type == null || isStandIn(real)) {
            return real;
        }
        return (T) standIns.computeIfAbsent(real, r -> Proxy.newProxyInstance(LocalCalls.class.getClassLoader(),
                interfaces(r.getClass()), new Handler(r)));
    }

    /**
     * Every public interface of the API that {@code type} implements, the provider interfaces
     * included (a region that can be revoked stays one, for a registered arena).
     */
    private static Class<?>[] interfaces(Class<?> type) {
        Set<Class<?>> all = new LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            addInterfaces(c, all);
        }
        return all.toArray(new Class<?>[0]);
    }

    private static void addInterfaces(Class<?> type, Set<Class<?>> all) {
        for (Class<?> i : type.getInterfaces()) {
            if (java.lang.reflect.Modifier.isPublic(i.getModifiers()) && i.getName().startsWith("dev.verbs4j.") && all.add(i)) {
                addInterfaces(i, all);
            }
        }
    }

    private synchronized void forget(Object real) {
        standIns.remove(real);
    }

    private static boolean isStandIn(Object value) {
        return Proxy.isProxyClass(value.getClass()) && Proxy.getInvocationHandler(value) instanceof Handler;
    }

    private final class Handler implements InvocationHandler {
        private final Object real;

        Handler(Object real) {
            this.real = real;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] arguments) throws Throwable {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == arguments[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> real.toString();
                };
            }
            Object[] args = arguments == null ? new Object[0] : arguments;
            for (int i = 0; i < args.length; i++) {
                args[i] = transform(args[i], false, null);
            }
            String name = method.getName();
            if (name.startsWith("post")) {
                agent.sendChanges();
            }
            Object result;
            try {
                result = method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (returnedSomething(name, result)) {
                agent.exchangeChanges();
            }
            if (name.equals("close")) {
                forget(real);
            }
            return transform(result, true, null);
        }
    }

    /** A poll or wait that handed back a completion or an event. */
    private static boolean returnedSomething(String method, Object result) {
        return switch (method) {
            case "poll" -> result instanceof Integer n && n > 0;
            case "startPoll", "nextPoll" -> Boolean.TRUE.equals(result);
            case "awaitEvent", "nextEvent" -> result instanceof Optional<?> o && o.isPresent();
            default -> false;
        };
    }

    /**
     * {@code value} with every resource in it replaced: by its stand-in ({@code wrap}) or by
     * the real resource. Arrays and the API's mutable value classes change in place, lists,
     * optionals and records are rebuilt when something in them changed. {@code visited} (made
     * on the first value that can hold a resource, so a call with none allocates nothing)
     * keeps a cycle from being walked twice.
     */
    private Object transform(Object value, boolean wrap, Map<Object, Boolean> visited) {
        if (value == null || value instanceof Enum<?> || value instanceof String || value instanceof Number) {
            return value;
        }
        if (RemoteTypes.interfaceOf(value) != null) {
            if (wrap) {
                return standIn(value);
            }
            return isStandIn(value) ? ((Handler) Proxy.getInvocationHandler(value)).real : value;
        }
        if (!mayHoldResource(value.getClass())) {
            return value;
        }
        Map<Object, Boolean> seen = visited != null ? visited : new IdentityHashMap<>();
        if (seen.put(value, Boolean.TRUE) != null) {
            return value;
        }
        if (value.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(value); i++) {
                Object e = Array.get(value, i);
                Object t = transform(e, wrap, seen);
                if (t != e) {
                    Array.set(value, i, t);
                }
            }
            return value;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            boolean changed = false;
            for (Object e : list) {
                Object t = transform(e, wrap, seen);
                changed |= t != e;
                copy.add(t);
            }
            return changed ? copy : value;
        }
        if (value instanceof Optional<?> optional) {
            return optional.map(v -> transform(v, wrap, seen));
        }
        if (value instanceof Record) {
            return rebuilt(value, wrap, seen);
        }
        for (Field f : Codec.fields(value.getClass())) {
            Object e = Codec.get(f, value);
            Object t = transform(e, wrap, seen);
            if (t != e) {
                Codec.set(f, value, t);
            }
        }
        return value;
    }

    private Object rebuilt(Object record, boolean wrap, Map<Object, Boolean> seen) {
        Codec.RecordShape shape = Codec.RecordShape.of(record.getClass());
        Object[] components = new Object[shape.accessors().length];
        boolean changed = false;
        for (int i = 0; i < components.length; i++) {
            Object e = Codec.invoke(shape.accessors()[i], record);
            components[i] = transform(e, wrap, seen);
            changed |= components[i] != e;
        }
        if (!changed) {
            return record;
        }
        try {
            return shape.canonical().newInstance(components);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot rebuild a " + record.getClass().getName(), e);
        }
    }

    /**
     * Whether a value of {@code type} can hold a resource: a list, an optional or an array of
     * objects, or an API class with a field that can. Answered once per class; a class that
     * cannot is passed as it is, so a poll's completions cost nothing here.
     */
    private static boolean mayHoldResource(Class<?> type) {
        Boolean known = MAY_HOLD_RESOURCE.get(type);
        if (known != null) {
            return known;
        }
        MAY_HOLD_RESOURCE.put(type, Boolean.FALSE);
        boolean may = computeMayHold(type);
        MAY_HOLD_RESOURCE.put(type, may);
        return may;
    }

    private static boolean computeMayHold(Class<?> type) {
        if (type.isArray()) {
            Class<?> c = type.getComponentType();
            return !c.isPrimitive() && fieldMayHold(c);
        }
        if (List.class.isAssignableFrom(type) || Optional.class.isAssignableFrom(type)) {
            return true;
        }
        if (!type.getName().startsWith("dev.verbs4j.") || type.isEnum()) {
            return false;
        }
        for (Field f : Codec.fields(type)) {
            if (fieldMayHold(f.getType())) {
                return true;
            }
        }
        return false;
    }

    private static boolean fieldMayHold(Class<?> declared) {
        if (declared.isPrimitive() || declared == String.class || declared.isEnum() || Number.class.isAssignableFrom(declared)) {
            return false;
        }
        if (declared == Object.class || declared.isInterface() && declared.getName().startsWith("dev.verbs4j.")) {
            return true;
        }
        return mayHoldResource(declared);
    }
}
