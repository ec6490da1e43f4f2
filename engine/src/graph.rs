//! Graph algorithms shared by the engines and the static checks (dependency graphs of rules).

/// Tarjan's strongly connected components of the graph whose node `n` has the edges
/// `successors[n]`, without recursion (long dependency chains cannot overflow the stack).
/// Components come out in reverse topological order (dependencies first), each sorted.
pub fn strongly_connected_components(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNVISITED: usize = usize::MAX;
    let n = successors.len();
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut counter = 0;
    for start in 0..n {
        if index[start] != UNVISITED {
            continue;
        }
        // Call frames: (node, next edge to look at).
        let mut frames = vec![(start, 0usize)];
        index[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (node, ref mut edge)) = frames.last_mut() {
            if let Some(&target) = successors[node].get(*edge) {
                *edge += 1;
                if index[target] == UNVISITED {
                    index[target] = counter;
                    low[target] = counter;
                    counter += 1;
                    stack.push(target);
                    on_stack[target] = true;
                    frames.push((target, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(index[target]);
                }
            } else {
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == index[node] {
                    let mut component = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        component.push(member);
                        if member == node {
                            break;
                        }
                    }
                    component.sort_unstable();
                    components.push(component);
                }
            }
        }
    }
    components
}

/// The number of the component each node belongs to, in the order of
/// [`strongly_connected_components`].
pub fn component_numbers(successors: &[Vec<usize>]) -> Vec<usize> {
    let mut numbers = vec![0; successors.len()];
    for (number, component) in strongly_connected_components(successors).iter().enumerate() {
        for &node in component {
            numbers[node] = number;
        }
    }
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_form_one_component_and_dependencies_come_first() {
        // 0 → 1 → 2 → 1, 3 alone.
        let successors = vec![vec![1], vec![2], vec![1], vec![]];
        let components = strongly_connected_components(&successors);
        assert_eq!(components, vec![vec![1, 2], vec![0], vec![3]]);
        let numbers = component_numbers(&successors);
        assert_eq!(numbers[1], numbers[2]);
        assert_ne!(numbers[0], numbers[1]);
    }
}
