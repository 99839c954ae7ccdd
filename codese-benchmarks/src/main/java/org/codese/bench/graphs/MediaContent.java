package org.codese.bench.graphs;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The jvm-serializers benchmark's {@code MediaContent} object, written here from its well-known
 * schema (a media record with a list of persons, and a list of images that refer back to it).
 */
public final class MediaContent implements Serializable {
  private static final long serialVersionUID = 1L;

  public Media media;
  public List<Image> images;

  public MediaContent() {}

  public MediaContent(Media media, List<Image> images) {
    this.media = media;
    this.images = images;
  }

  /** The player a media record is meant for. */
  public enum Player {
    JAVA,
    FLASH
  }

  /** The size class of an image. */
  public enum Size {
    SMALL,
    LARGE
  }

  /** A video or audio record. */
  public static final class Media implements Serializable {
    private static final long serialVersionUID = 1L;
    public String uri;
    public String title;
    public int width;
    public int height;
    public String format;
    public long duration;
    public long size;
    public int bitrate;
    public boolean hasBitrate;
    public List<String> persons;
    public Player player;
    public String copyright;

    public Media() {}
  }

  /** An image of a media record. */
  public static final class Image implements Serializable {
    private static final long serialVersionUID = 1L;
    public String uri;
    public String title;
    public int width;
    public int height;
    public Size size;
    public Media media;

    public Image() {}

    Image(String uri, String title, int width, int height, Size size, Media media) {
      this.uri = uri;
      this.title = title;
      this.width = width;
      this.height = height;
      this.size = size;
      this.media = media;
    }
  }

  /**
   * @return the benchmark's standard instance
   */
  public static MediaContent standard() {
    Media media = new Media();
    media.uri = "http://javaone.com/keynote.mpg";
    media.title = "Javaone Keynote";
    media.width = 640;
    media.height = 480;
    media.format = "video/mpg4";
    media.duration = 18_000_000L;
    media.size = 58_982_400L;
    media.bitrate = 262_144;
    media.hasBitrate = true;
    media.persons = new ArrayList<>(List.of("Bill Gates", "Steve Jobs"));
    media.player = Player.JAVA;
    media.copyright = null;
    List<Image> images = new ArrayList<>();
    images.add(
        new Image(
            "http://javaone.com/keynote_large.jpg",
            "Javaone Keynote",
            1024,
            768,
            Size.LARGE,
            media));
    images.add(
        new Image(
            "http://javaone.com/keynote_small.jpg",
            "Javaone Keynote",
            320,
            240,
            Size.SMALL,
            media));
    return new MediaContent(media, images);
  }
}
