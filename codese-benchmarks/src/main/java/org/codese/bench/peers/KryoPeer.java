package org.codese.bench.peers;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.SerializerFactory;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.ClosureSerializer;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.esotericsoftware.kryo.serializers.ImmutableCollectionsSerializers;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import java.nio.file.Path;
import org.objenesis.strategy.StdInstantiatorStrategy;

/** Kryo 5 with references on and no registration; one Kryo instance per program. */
final class KryoPeer implements Peer {
  static Kryo newKryo() {
    Kryo kryo = new Kryo();
    kryo.setReferences(true);
    kryo.setRegistrationRequired(false);
    // JDK classes that are closed to reflection (UUID, ...) and have no Kryo serializer of their
    // own fall back to Java serialization; everything else gets Kryo's field serializer
    kryo.setDefaultSerializer(
        new SerializerFactory.BaseSerializerFactory<Serializer<?>>() {
          @Override
          public Serializer<?> newSerializer(Kryo k, Class type) {
            if (type == ClosureSerializer.Closure.class) {
              // serializable lambdas; created on first use only (its constructor is costly)
              return new ClosureSerializer();
            }
            if (java.io.Serializable.class.isAssignableFrom(type) && closed(type)) {
              return new JavaSerializer();
            }
            return new FieldSerializer<>(k, type);
          }
        });
    kryo.setInstantiatorStrategy(
        new com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy(
            new StdInstantiatorStrategy()));
    // List.of/Set.of/Map.of, as Kryo's documentation advises
    ImmutableCollectionsSerializers.addDefaultSerializers(kryo);
    return kryo;
  }

  static boolean closed(Class<?> type) {
    Module m = type.getModule();
    return m.isNamed()
        && type.getPackageName().startsWith("java")
        && !m.isOpen(type.getPackageName(), KryoPeer.class.getModule());
  }

  @Override
  public String name() {
    return "kryo";
  }

  @Override
  public String config() {
    return "Kryo 5.6.2: references on, registration off, no-arg constructor else Objenesis,"
        + " default serializers, Java serialization for closed JDK classes without a Kryo serializer, ImmutableCollectionsSerializers, ClosureSerializer for lambdas (made on first use); one instance, bytes read once";
  }

  @Override
  public String extension() {
    return "kryo";
  }

  /** the capturing engine, made by the first capture and kept, as a program would keep it */
  private Kryo captureKryo;

  @Override
  public byte[] capture(Object root) throws Exception {
    if (captureKryo == null) {
      captureKryo = newKryo();
    }
    Output out = new Output(1 << 16, -1);
    captureKryo.writeClassAndObject(out, root);
    return out.toBytes();
  }

  @Override
  public Restorer open(Path file, int threads) throws Exception {
    byte[] bytes = Peer.readFile(file);
    return new Restore(newKryo(), bytes);
  }

  @Override
  public Session session() {
    return new InMemory(newKryo());
  }

  /** One Kryo instance and one output buffer for every capture and restore. */
  private static final class InMemory implements Session {
    private final Kryo kryo;
    private final Output out = new Output(1 << 16, -1);

    InMemory(Kryo kryo) {
      this.kryo = kryo;
    }

    @Override
    public byte[] capture(Object root) {
      out.reset();
      kryo.writeClassAndObject(out, root);
      return out.toBytes();
    }

    @Override
    public Object restore(byte[] bytes) {
      return kryo.readClassAndObject(new Input(bytes));
    }
  }

  // a named class, not a lambda: a lambda's bootstrap costs milliseconds in a fresh JVM
  private static final class Restore implements Restorer {
    private final Kryo kryo;
    private final byte[] bytes;

    Restore(Kryo kryo, byte[] bytes) {
      this.kryo = kryo;
      this.bytes = bytes;
    }

    @Override
    public Object restore() {
      return kryo.readClassAndObject(new Input(bytes));
    }
  }
}
