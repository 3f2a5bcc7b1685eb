package wsjava.release;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** A pom.xml as the release checks read it: the project's own elements and properties, uninterpolated. */
final class ProjectPom {

    static final ProjectPom LIBRARY = read(Path.of("pom.xml"));
    static final ProjectPom REDIS = read(Path.of("redis", "pom.xml"));

    private final Element project;

    private ProjectPom(Element project) {
        this.project = project;
    }

    static ProjectPom read(Path path) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(path.toFile());
            return new ProjectPom(document.getDocumentElement());
        } catch (IOException | SAXException | ParserConfigurationException e) {
            throw new IllegalStateException("cannot read " + path, e);
        }
    }

    String version() {
        return text("version");
    }

    String property(String name) {
        return text("properties/" + name);
    }

    /** The text of the element at a slash-separated path under the project, or null when absent. */
    String text(String path) {
        Element element = element(path);
        return element == null ? null : element.getTextContent().trim();
    }

    Element element(String path) {
        Element at = project;
        for (String name : path.split("/")) {
            List<Element> children = children(at, name);
            if (children.isEmpty()) {
                return null;
            }
            at = children.get(0);
        }
        return at;
    }

    /** This project's text at {@code path} with its own {@code ${property}} references filled in. */
    String resolved(String path) {
        String text = text(path);
        if (text == null) {
            return null;
        }
        for (Element property : children(element("properties"), null)) {
            text = text.replace("${" + property.getTagName() + "}", property.getTextContent().trim());
        }
        return text.replace("${project.version}", version());
    }

    static List<Element> children(Element parent, String name) {
        List<Element> children = new ArrayList<>();
        if (parent == null) {
            return children;
        }
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element && (name == null || ((Element) node).getTagName().equals(name))) {
                children.add((Element) node);
            }
        }
        return children;
    }
}
