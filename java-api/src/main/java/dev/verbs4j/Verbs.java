package dev.verbs4j;

import dev.verbs4j.spi.VerbsProvider;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The entry point, where libibverbs' is {@code ibv_get_device_list}: finds the providers on
 * the class path ({@link ServiceLoader} of {@link VerbsProvider}) and picks one by name or by the {@value #PROVIDER_PROPERTY}
 * system property (or the {@code VERBS4J_PROVIDER} environment variable).
 * <pre>{@code
 * Provider provider = Verbs.defaultProvider();
 * try (DeviceContext ctx = provider.devices().getFirst().open()) { ... }
 * }</pre>
 */
public final class Verbs {
    /** System property naming the provider {@link #defaultProvider()} returns. */
    public static final String PROVIDER_PROPERTY = "verbs4j.provider";

    private Verbs() {
    }

    private static final class Loaded {
        static final List<Provider> PROVIDERS = load();

        private static List<Provider> load() {
            List<Provider> found = new ArrayList<>();
            for (VerbsProvider p : ServiceLoader.load(VerbsProvider.class, Verbs.class.getClassLoader())) {
                found.add(p);
            }
            found.sort(Comparator.comparing(Provider::name));
            return List.copyOf(found);
        }
    }

    /**
     * Every provider on the class path, by name.
     *
     * @return the providers, unmodifiable, sorted by name; loaded once
     */
    public static List<Provider> providers() {
        return Loaded.PROVIDERS;
    }

    /**
     * The provider with the given name.
     *
     * @throws IllegalArgumentException if no provider has that name
     * @param name e.g. {@code soft} or {@code ibverbs}
     * @return the provider
     */
    public static Provider provider(String name) {
        for (Provider p : providers()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no verbs provider named '" + name + "' on the class path; found "
                + providers().stream().map(Provider::name).toList());
    }

    /**
     * The provider named by the {@value #PROVIDER_PROPERTY} property or the
     * {@code VERBS4J_PROVIDER} environment variable; without either, the {@code ibverbs}
     * provider when it has a device here, else {@code soft}, else the first found.
     *
     * @throws IllegalStateException when no provider is on the class path
     * @return the provider
     */
    public static Provider defaultProvider() {
        String named = System.getProperty(PROVIDER_PROPERTY, System.getenv("VERBS4J_PROVIDER"));
        if (named != null && !named.isBlank()) {
            return provider(named.trim());
        }
        List<Provider> all = providers();
        if (all.isEmpty()) {
            throw new IllegalStateException("no verbs provider on the class path");
        }
        for (String preferred : List.of("ibverbs", "soft")) {
            for (Provider p : all) {
                if (p.name().equals(preferred) && !p.devices().isEmpty()) {
                    return p;
                }
            }
        }
        return all.getFirst();
    }
}
